import type { Worker } from 'node:worker_threads'
import type { FireLandscapeData } from '../fire/landscape'
import { startWorker } from '../tiles/startWorker'
import type { FireSimAnswer, FireSimOutcome } from './fireSimProtocol'

export interface FireSimJob {
  lon: number
  lat: number
  hour: number
  hours: number
  cellSizeM: number
}

/** A simulation the worker refused (e.g. a point outside the landscape): a client mistake. */
export class FireSimRefused extends Error {}

/**
 * The what-if simulations' one worker thread (fireSimWorker.ts), started on first use: each
 * simulation runs off the event loop, one at a time (the machine's other cores stay with tiles and
 * the consequence run). The landscape goes to the thread once per key (the versions of its grids).
 */
export class FireSimPool {
  private worker: Worker | null = null
  private key: string | null = null
  private nextId = 1
  private readonly pending = new Map<number, (a: FireSimAnswer | Error) => void>()
  private chain: Promise<unknown> = Promise.resolve()
  private queued = 0
  private closed = false

  constructor(readonly maxQueued = 4) {}

  /** Simulations waiting or running. */
  get load(): number {
    return this.queued
  }

  private start(): Worker {
    if (this.worker) return this.worker
    // startWorker resolves the module relative to src/server/tiles.
    const worker = startWorker('../fireSim/fireSimWorker', null)
    const fail = (error: Error) => {
      if (this.worker === worker) {
        this.worker = null
        this.key = null
      }
      for (const settle of this.pending.values()) settle(error)
      this.pending.clear()
    }
    worker.on('message', (a: FireSimAnswer) => {
      const settle = this.pending.get(a.id)
      this.pending.delete(a.id)
      settle?.(a)
    })
    worker.on('error', fail)
    worker.on('exit', (code) => fail(new Error(`the fire what-if worker exited (${code})`)))
    worker.unref()
    this.worker = worker
    return worker
  }

  /** Starts the thread ahead of the first simulation (its start-up is then off the first answer). */
  warm(): void {
    if (!this.closed) this.start()
  }

  /** Runs one simulation; `landscape` is called only when the thread does not hold `key` yet. */
  run(
    key: string,
    landscape: () => FireLandscapeData,
    job: FireSimJob,
    timeoutMs = 30_000,
  ): Promise<FireSimOutcome> {
    if (this.closed) return Promise.reject(new Error('the fire what-if worker is closed'))
    this.queued++
    const task = this.chain.then(() => this.runNow(key, landscape, job, timeoutMs))
    this.chain = task.catch(() => undefined)
    return task.finally(() => {
      this.queued--
    })
  }

  private async runNow(
    key: string,
    landscape: () => FireLandscapeData,
    job: FireSimJob,
    timeoutMs: number,
  ): Promise<FireSimOutcome> {
    const worker = this.start()
    if (this.key !== key) {
      worker.postMessage({ type: 'landscape', key, data: landscape() })
      this.key = key
    }
    const id = this.nextId++
    let timer: ReturnType<typeof setTimeout> | undefined
    const answer = await new Promise<FireSimAnswer | Error>((resolve) => {
      this.pending.set(id, resolve)
      timer = setTimeout(() => {
        this.pending.delete(id)
        // A simulation past its time: the thread is stopped (and a new one starts for the next).
        void worker.terminate()
        resolve(new Error(`the simulation took longer than ${timeoutMs / 1000} s`))
      }, timeoutMs)
      worker.ref()
      worker.postMessage({ type: 'simulate', id, key, ...job })
    })
    clearTimeout(timer)
    if (this.pending.size === 0) worker.unref()
    if (answer instanceof Error) throw answer
    if (!answer.ok) throw answer.landscapeError ? new FireSimRefused(answer.error) : new Error(answer.error)
    return answer.outcome
  }

  async close(): Promise<void> {
    this.closed = true
    const w = this.worker
    this.worker = null
    if (w) await w.terminate()
  }
}
