import type { Worker } from 'node:worker_threads'
import { startWorker } from '../../tiles/startWorker'
import type { FireIgnition, FireIgnitionResult } from '../../store/fireRunStore'
import type { BlockCacheStats } from '../simulate'
import type { FireRunInputs, FireWorkerAnswer, FireWorkerReady, FireWorkerThread } from './fireBatchProtocol'

interface Slot {
  worker: Worker
  key: string | null
  busy: boolean
  /** The thread's id once it said (it lowered its own CPU priority, threadPriority.ts). */
  tid: number | null
  /** Resolves once the thread has loaded (its first message) or failed. */
  started: Promise<void>
  pending: Map<number, (a: FireWorkerAnswer | Error) => void>
  /** The inputs last sent and the thread's answer once it has read them (prepare waits for it). */
  read: {
    key: string
    answer: Promise<FireWorkerReady | Error>
    settle: (r: FireWorkerReady | Error) => void
  } | null
  /** The thread's block cache counts for its current run (from its last answer). */
  cache: BlockCacheStats
}

const noStats = (): BlockCacheStats => ({ hits: 0, misses: 0, landHits: 0, landMisses: 0 })

/**
 * A server's fire worker threads (fireBatchWorker.ts), started on first use. Each batch runs on an
 * idle thread — or on the thread of its lane (`run`'s `lane`: FireRunService keeps each thread to a
 * range of batches, so its block cache serves them) — so the simulation never blocks the event loop;
 * `size` threads run at most `size` batches at once (docs/fire.md: cores − 1, at least 1).
 */
export class FireBatchPool {
  /** By lane; a thread that died leaves its place empty until the lane's next batch. */
  private readonly slots: (Slot | undefined)[] = []
  private nextId = 1
  private closed = false
  /** How many times a run's inputs were sent to a thread (each thread reads them once per run). */
  inputsSent = 0

  constructor(readonly size: number) {}

  private get live(): Slot[] {
    return this.slots.filter((s): s is Slot => s !== undefined)
  }

  /** The ids of the started threads that lowered their priority (Linux). */
  get threadIds(): number[] {
    return this.live.flatMap((s) => (s.tid === null ? [] : [s.tid]))
  }

  /** Threads free for another batch. */
  get idle(): number {
    return this.size - this.live.filter((s) => s.busy).length
  }

  /** Block cache counts summed over the threads, for their current runs. */
  cacheStats(): BlockCacheStats {
    const out = noStats()
    for (const s of this.live)
      for (const k of Object.keys(out) as (keyof BlockCacheStats)[]) out[k] += s.cache[k]
    return out
  }

  private slot(lane?: number): Slot {
    if (lane !== undefined) {
      if (!(Number.isInteger(lane) && lane >= 0 && lane < this.size))
        throw new Error(`no fire worker ${lane}`)
      const s = this.slots[lane] ?? this.spawn(lane)
      if (s.busy) throw new Error(`fire worker ${lane} is busy`)
      return s
    }
    const free = this.live.find((s) => !s.busy)
    if (free) return free
    for (let i = 0; i < this.size; i++) if (!this.slots[i]) return this.spawn(i)
    throw new Error('every fire worker is busy')
  }

  /**
   * Starts every thread now (a server's first batch then does not wait for its thread to load) and
   * resolves once each has loaded and lowered its priority.
   */
  async warm(): Promise<void> {
    for (let i = 0; i < this.size; i++) if (!this.slots[i]) this.spawn(i)
    // Held while loading (an unref'd thread alone would not keep the process up to answer).
    await Promise.all(
      this.live.map(async (s) => {
        s.worker.ref()
        await s.started
        if (!s.busy) s.worker.unref()
      }),
    )
  }

  /**
   * Sends a run's inputs to every thread that does not have them (starting the threads) and
   * resolves once each has read them — before the server claims the run's first batch, so that
   * batch runs at full speed and no batch waits on a read. Rejects when a thread could not read them
   * (that thread is sent them again with its next batch).
   */
  async prepare(inputs: FireRunInputs): Promise<void> {
    if (this.closed) throw new Error('the fire worker pool is closed')
    for (let i = 0; i < this.size; i++) if (!this.slots[i]) this.spawn(i)
    await Promise.all(
      this.live.map(async (s) => {
        if (s.key !== inputs.key) this.send(s, inputs)
        s.worker.ref()
        const answer = await s.read!.answer
        if (!s.busy) s.worker.unref()
        if (answer instanceof Error) throw answer
        if (!answer.ok) throw new Error(answer.error ?? 'the fire worker could not read the run’s inputs')
      }),
    )
  }

  /** Sends a thread a run's inputs: it reads them and says so (slot.read). */
  private send(s: Slot, inputs: FireRunInputs): void {
    let settle!: (r: FireWorkerReady | Error) => void
    const answer = new Promise<FireWorkerReady | Error>((resolve) => (settle = resolve))
    s.read = { key: inputs.key, answer, settle }
    s.worker.postMessage({ type: 'inputs', inputs })
    s.key = inputs.key
    s.cache = noStats()
    this.inputsSent++
  }

  private spawn(lane: number): Slot {
    // startWorker resolves the module relative to src/server/tiles.
    const worker = startWorker('../fire/runs/fireBatchWorker', null)
    let started!: () => void
    const slot: Slot = {
      worker,
      key: null,
      busy: false,
      tid: null,
      pending: new Map(),
      read: null,
      cache: noStats(),
      started: new Promise<void>((resolve) => (started = resolve)),
    }
    const fail = (error: Error) => {
      started()
      if (this.slots[lane] === slot) this.slots[lane] = undefined
      for (const settle of slot.pending.values()) settle(error)
      slot.pending.clear()
      slot.read?.settle(error)
    }
    worker.on('message', (a: FireWorkerAnswer | FireWorkerThread | FireWorkerReady) => {
      if ('thread' in a) {
        slot.tid = a.thread
        started()
        return
      }
      if ('ready' in a) {
        if (slot.read?.key === a.ready) slot.read.settle(a)
        // A thread that could not read them is sent them again with its next batch.
        if (!a.ok && slot.key === a.ready) slot.key = null
        return
      }
      if (a.ok) slot.cache = a.cache
      const settle = slot.pending.get(a.id)
      slot.pending.delete(a.id)
      settle?.(a)
    })
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`fire worker exited (${code})`)))
    worker.unref()
    this.slots[lane] = slot
    return slot
  }

  /**
   * Runs one batch with the run's inputs (sent to the thread once per run) on an idle thread, or on
   * lane `lane`'s thread.
   */
  async run(
    inputs: () => FireRunInputs,
    key: string,
    startHour: number,
    ignitions: readonly FireIgnition[],
    lane?: number,
  ): Promise<FireIgnitionResult[]> {
    if (this.closed) throw new Error('the fire worker pool is closed')
    const slot = this.slot(lane)
    slot.busy = true
    try {
      if (slot.key !== key) this.send(slot, inputs())
      const id = this.nextId++
      const answer = await new Promise<FireWorkerAnswer | Error>((resolve) => {
        slot.pending.set(id, resolve)
        slot.worker.ref()
        slot.worker.postMessage({ type: 'batch', id, key, startHour, ignitions })
      })
      if (answer instanceof Error) throw answer
      if (!answer.ok) {
        // The thread may have failed to read the run's inputs: send them again with the next batch.
        slot.key = null
        throw new Error(answer.error)
      }
      return answer.results
    } finally {
      slot.busy = false
      slot.worker.unref()
    }
  }

  async close(): Promise<void> {
    this.closed = true
    const slots = this.live
    this.slots.length = 0
    await Promise.all(slots.map((s) => s.worker.terminate()))
  }
}
