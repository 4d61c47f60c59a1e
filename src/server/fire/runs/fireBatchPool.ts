import type { Worker } from 'node:worker_threads'
import { startWorker } from '../../tiles/startWorker'
import type { FireIgnition, FireIgnitionResult } from '../../store/fireRunStore'
import type { FireRunInputs, FireWorkerAnswer, FireWorkerThread } from './fireBatchProtocol'

interface Slot {
  worker: Worker
  key: string | null
  busy: boolean
  /** The thread's id once it said (it lowered its own CPU priority, threadPriority.ts). */
  tid: number | null
  /** Resolves once the thread has loaded (its first message) or failed. */
  started: Promise<void>
  pending: Map<number, (a: FireWorkerAnswer | Error) => void>
}

/**
 * A server's fire worker threads (fireBatchWorker.ts), started on first use. Each batch runs on an
 * idle thread, so the simulation never blocks the event loop; `size` threads run at most `size`
 * batches at once (docs/fire.md: cores − 1, at least 1).
 */
export class FireBatchPool {
  private readonly slots: Slot[] = []
  private nextId = 1
  private closed = false

  constructor(readonly size: number) {}

  /** The ids of the started threads that lowered their priority (Linux). */
  get threadIds(): number[] {
    return this.slots.flatMap((s) => (s.tid === null ? [] : [s.tid]))
  }

  /** Threads free for another batch. */
  get idle(): number {
    return this.size - this.slots.filter((s) => s.busy).length
  }

  private slot(): Slot {
    const free = this.slots.find((s) => !s.busy)
    if (free) return free
    if (this.slots.length >= this.size) throw new Error('every fire worker is busy')
    return this.spawn()
  }

  /**
   * Starts every thread now (a server's first batch then does not wait for its thread to load) and
   * resolves once each has loaded and lowered its priority.
   */
  async warm(): Promise<void> {
    while (this.slots.length < this.size) this.spawn()
    // Held while loading (an unref'd thread alone would not keep the process up to answer).
    await Promise.all(
      this.slots.map(async (s) => {
        s.worker.ref()
        await s.started
        if (!s.busy) s.worker.unref()
      }),
    )
  }

  private spawn(): Slot {
    // startWorker resolves the module relative to src/server/tiles.
    const worker = startWorker('../fire/runs/fireBatchWorker', null)
    let started!: () => void
    const slot: Slot = {
      worker,
      key: null,
      busy: false,
      tid: null,
      pending: new Map(),
      started: new Promise<void>((resolve) => (started = resolve)),
    }
    const fail = (error: Error) => {
      started()
      const i = this.slots.indexOf(slot)
      if (i >= 0) this.slots.splice(i, 1)
      for (const settle of slot.pending.values()) settle(error)
      slot.pending.clear()
    }
    worker.on('message', (a: FireWorkerAnswer | FireWorkerThread) => {
      if ('thread' in a) {
        slot.tid = a.thread
        started()
        return
      }
      const settle = slot.pending.get(a.id)
      slot.pending.delete(a.id)
      settle?.(a)
    })
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`fire worker exited (${code})`)))
    worker.unref()
    this.slots.push(slot)
    return slot
  }

  /** Runs one batch on an idle thread with the run's inputs (sent to that thread once per run). */
  async run(
    inputs: () => FireRunInputs,
    key: string,
    startHour: number,
    ignitions: readonly FireIgnition[],
  ): Promise<FireIgnitionResult[]> {
    if (this.closed) throw new Error('the fire worker pool is closed')
    const slot = this.slot()
    slot.busy = true
    try {
      if (slot.key !== key) {
        slot.worker.postMessage({ type: 'inputs', inputs: inputs() })
        slot.key = key
      }
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
    const slots = this.slots.splice(0)
    await Promise.all(slots.map((s) => s.worker.terminate()))
  }
}
