/**
 * Adds Leaflet layers to the map one task at a time, in the order they were asked for. Adding a
 * tile layer creates all its visible tiles and starts their requests in one go (≈ 10 ms of main
 * thread for a dozen canvases); when a view opens with eight layers, adding them in one React
 * commit kept the main thread busy for ~90 ms before any tile could be drawn. One layer per task
 * lets the first layer's tiles arrive and draw while the next is being added.
 */
type Job = { run: () => void; cancelled: boolean }

const jobs: Job[] = []
let scheduled = false

/** A macrotask without setTimeout's 4 ms clamp (MessageChannel), or setTimeout where there is none. */
function nextTask(then: () => void): void {
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel()
    channel.port1.onmessage = () => {
      channel.port1.close()
      then()
    }
    channel.port2.postMessage(null)
  } else setTimeout(then, 0)
}

function pump(): void {
  scheduled = false
  let job = jobs.shift()
  while (job?.cancelled) job = jobs.shift()
  if (!job) return
  job.run()
  if (jobs.length > 0) schedule()
}

function schedule(): void {
  if (scheduled) return
  scheduled = true
  nextTask(pump)
}

/**
 * Runs `add` in a task of its own after the additions queued before it. Returns a cancel function
 * (the effect's clean-up): a cancelled addition never runs.
 */
export function queueLayerAdd(add: () => void): () => void {
  const job: Job = { run: add, cancelled: false }
  jobs.push(job)
  schedule()
  return () => {
    job.cancelled = true
  }
}

/** True when no layer addition is waiting for its turn (the map picture waits for the queue to drain). */
export function layerQueueIdle(): boolean {
  return jobs.every((job) => job.cancelled)
}

/**
 * Leaflet's zIndex for a layer at a draw order (bottom first): layers stack by it within their pane,
 * whatever order they were added in.
 */
export function stackIndex(order: number): number {
  return order + 1
}
