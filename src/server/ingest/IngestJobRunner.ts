import type { IngestJob, IngestJobStore } from '../store/ingestJobStore'

/** How often a queued or running job's heartbeat (and progress) is written. */
export const HEARTBEAT_MS = 5_000
/** A queued or running job whose heartbeat is older than this was orphaned: its server stopped. */
export const STALE_MS = 30_000

export const ORPHANED = 'the server running this job stopped before it finished; nothing was changed by it'

/** A job's work: resolves to its summary, or rejects with a JobFailure (or any error). */
export interface IngestTask {
  job: IngestJob
  run(onProgress: (done: number) => void, signal: AbortSignal): Promise<Record<string, unknown>>
  /** Called once the job has ended, whatever the outcome (temporary files go). */
  cleanup(): void
}

/** A failed job's message and the summary to record with it (rejected lines, …). */
export class JobFailure extends Error {
  constructor(
    message: string,
    readonly summary: Record<string, unknown>,
  ) {
    super(message)
  }
}

/** Runs `fn`, handing any error (thrown or rejected) to `onError`. */
async function attempt(fn: () => unknown, onError: (e: unknown) => void): Promise<void> {
  try {
    await fn()
  } catch (e) {
    onError(e)
  }
}

export interface RunnerLimits {
  maxConcurrentJobs: number
  maxQueuedJobs: number
}

interface Slot {
  task: IngestTask
  progress: number
  written: number
}

/**
 * This server's ingestion jobs: at most `maxConcurrentJobs` run at once, the others wait queued
 * (first come, first served); every state change and, every HEARTBEAT_MS, the progress and
 * heartbeat are written to the store, so any server reads a job. `close()` (the server stopping)
 * stops the running jobs and records them failed.
 */
export class IngestJobRunner {
  private readonly queued: Slot[] = []
  private readonly running = new Set<Slot>()
  private reserved = 0
  private readonly stop = new AbortController()
  private readonly timer: NodeJS.Timeout

  constructor(
    private readonly jobs: IngestJobStore,
    private readonly limits: RunnerLimits,
    private readonly warn: (message: string, err: unknown) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS)
    this.timer.unref()
  }

  /**
   * Holds a place for a job about to be received (its body is being read); null when the server
   * already has as many jobs as it may run and queue. Release it if no job follows.
   */
  reserve(): { release(): void } | null {
    const { maxConcurrentJobs, maxQueuedJobs } = this.limits
    if (this.running.size + this.queued.length + this.reserved >= maxConcurrentJobs + maxQueuedJobs)
      return null
    this.reserved++
    let held = true
    return {
      release: () => {
        if (held) this.reserved--
        held = false
      },
    }
  }

  /** Queues a stored job (status queued); it starts when a slot frees. */
  submit(task: IngestTask): void {
    this.queued.push({ task, progress: 0, written: 0 })
    this.pump()
  }

  private pump(): void {
    while (!this.stop.signal.aborted && this.running.size < this.limits.maxConcurrentJobs) {
      const slot = this.queued.shift()
      if (!slot) return
      this.running.add(slot)
      void this.execute(slot)
    }
  }

  private async execute(slot: Slot): Promise<void> {
    const { task } = slot
    const id = task.job.id
    try {
      const at = this.now()
      await this.jobs.update(id, { status: 'running', startedAt: at, heartbeatAt: at })
      const summary = await task.run((done) => (slot.progress = done), this.stop.signal)
      const end = this.now()
      await this.jobs.update(id, {
        status: 'succeeded',
        progress: slot.progress,
        summary,
        finishedAt: end,
        heartbeatAt: end,
      })
    } catch (err) {
      const end = this.now()
      const message = this.stop.signal.aborted
        ? 'the server stopped while the job ran; nothing was changed by it'
        : err instanceof Error
          ? err.message
          : String(err)
      await attempt(
        () =>
          this.jobs.update(id, {
            status: 'failed',
            progress: slot.progress,
            error: message,
            summary: err instanceof JobFailure ? err.summary : null,
            finishedAt: end,
            heartbeatAt: end,
          }),
        (e) => this.warn(`ingest job ${id}: could not record its failure`, e),
      )
    } finally {
      this.running.delete(slot)
      task.cleanup()
      this.pump()
    }
  }

  /** Renews the heartbeat (and progress) of this server's queued and running jobs. */
  private async beat(): Promise<void> {
    const at = this.now()
    for (const slot of [...this.running, ...this.queued]) {
      await attempt(
        () => this.jobs.update(slot.task.job.id, { progress: slot.progress, heartbeatAt: at }),
        (e) => this.warn(`ingest job ${slot.task.job.id}: heartbeat not written`, e),
      )
    }
  }

  /** Stops the running jobs (recorded failed) and fails the queued ones; their files go. */
  async close(): Promise<void> {
    clearInterval(this.timer)
    this.stop.abort()
    const waiting = this.queued.splice(0)
    const at = this.now()
    for (const slot of waiting) {
      await attempt(
        () =>
          this.jobs.update(slot.task.job.id, {
            status: 'failed',
            error: 'the server stopped before the job started; nothing was changed by it',
            finishedAt: at,
            heartbeatAt: at,
          }),
        () => undefined,
      )
      slot.task.cleanup()
    }
    // Running jobs reject on the abort and record themselves failed.
    while (this.running.size > 0) await new Promise((r) => setTimeout(r, 20))
  }
}
