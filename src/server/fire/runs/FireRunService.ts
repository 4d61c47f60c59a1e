import os from 'node:os'
import type { AppStore } from '../../store/AppStore'
import type { ClaimedFireBatch, FireBatchRef, FireRunRow, FireRunTrigger } from '../../store/fireRunStore'
import type { BlockCacheStats } from '../simulate'
import type { WindowSettings } from '../../grids/forecastWindow'
import { WIND_U_GRID } from '../../grids/windGrid'
import type { Leadership } from '../../cluster/leadership'
import { FireBatchPool } from './fireBatchPool'
import type { FireRunInputs } from './fireBatchProtocol'
import { planFireRun, runInputs } from './planFireRun'
import { runInputsSource } from './fireRunInputs'
import type { CircuitSummary } from '../consequence'
import { writeRunOutputsOffThread } from './writeOutputsInWorker'
import type { FireRunSettings } from './fireRunSettings'

export interface FireRunServiceOptions {
  store: AppStore
  settings: FireRunSettings
  window: WindowSettings
  /** This server's name in the job table (claimed_by). */
  server?: string
  warn?: (message: string, err: unknown) => void
  /** Runs batches (default: this server's worker threads). Tests and benchmarks pass their own. */
  pool?: BatchPool
}

/** What the service needs of a pool (FireBatchPool; tests and benchmarks pass their own). */
export type BatchPool = Pick<FireBatchPool, 'size' | 'run' | 'close'> &
  Partial<Pick<FireBatchPool, 'warm' | 'prepare' | 'cacheStats'>>

/** A worker thread's claims: the batch it has (if any) and the last one it took, to take the next. */
interface Lane {
  busy: boolean
  last: FireBatchRef | null
}

/**
 * The territory's consequence run on one server (docs/fire.md "Consequence run"): while this server
 * leads, it starts a run after each weather update (a new wind grid version) and finishes runs whose
 * finisher died; on every server, a loop claims batches from the job table and runs them on the
 * worker threads; the server that completes a run's last batch writes the outputs.
 */
export class FireRunService {
  readonly server: string
  private readonly pool: BatchPool
  private readonly inputs = new Map<number, Promise<FireRunInputs>>()
  /** Runs whose inputs every thread of this server has read (or is reading). */
  private readonly prepared = new Map<number, Promise<void>>()
  private readonly lanes: Lane[]
  private loopTimer: NodeJS.Timeout | null = null
  private weatherTimer: NodeJS.Timeout | null = null
  private running = new Set<Promise<void>>()
  private stopped = true
  private finishing = new Set<number>()

  constructor(private readonly opts: FireRunServiceOptions) {
    this.server = opts.server ?? `${os.hostname()}:${process.pid}`
    this.pool = opts.pool ?? new FireBatchPool(opts.settings.workers)
    this.lanes = Array.from({ length: this.pool.size }, () => ({ busy: false, last: null }))
  }

  /** How long this server's threads took to read the last run's inputs (benchmarks). */
  inputsReadMs: number | undefined

  /** This server's threads' block cache counts for the current run (benchmarks). */
  cacheStats(): BlockCacheStats | undefined {
    return this.pool.cacheStats?.()
  }

  private get store() {
    return this.opts.store
  }

  private warn(message: string, err: unknown): void {
    this.opts.warn?.(message, err)
  }

  /** Plans and records a run; `created` false (and the running run's id) while another runs. */
  async requestRun(
    trigger: FireRunTrigger,
    requestedBy: string | null,
  ): Promise<{ id: number; created: boolean }> {
    const run = await planFireRun(this.store, this.opts.settings, this.opts.window, trigger, requestedBy)
    const out = await this.store.fireRuns.createRun(run)
    if (out.created) this.kick()
    return out
  }

  /** The leader's check: a run for the current wind version unless one was made; finish orphaned runs. */
  async weatherTick(): Promise<void> {
    const version = await this.store.grids.version(this.opts.settings.landscape.windUGrid ?? WIND_U_GRID)
    if (version && !(await this.store.fireRuns.runForWind(version))) await this.requestRun('weather', null)
    for (const id of await this.store.fireRuns.readyRuns()) await this.finish(id)
  }

  /** Starts the leader's weather check (a LeaderTask: returns its stop). */
  leaderTask(): () => void {
    let stopped = false
    const tick = () => {
      if (stopped) return
      void this.weatherTick()
        .catch((err: unknown) => this.warn('fire consequence: scheduling a run failed', err))
        .finally(() => {
          if (stopped) return
          this.weatherTimer = setTimeout(tick, this.opts.settings.weatherPollMs)
          this.weatherTimer.unref()
        })
    }
    tick()
    return () => {
      stopped = true
      if (this.weatherTimer) clearTimeout(this.weatherTimer)
    }
  }

  /** Schedules: the leader's weather check while leading, and this server's worker loop. */
  start(leader: Leadership): () => void {
    const stopLeading = leader.whileLeader(() => this.leaderTask())
    this.startLoop()
    return () => {
      stopLeading()
      this.stopLoop()
    }
  }

  /** Starts the worker threads ahead of the first batch (benchmarks; a server starts them on first use). */
  async warm(): Promise<void> {
    await this.pool.warm?.()
  }

  startLoop(): void {
    this.stopped = false
    this.kick()
  }

  stopLoop(): void {
    this.stopped = true
    if (this.loopTimer) clearTimeout(this.loopTimer)
  }

  /** Claims batches for every idle worker now (and again after `pollMs` when there was none). */
  kick(): void {
    if (this.stopped) return
    if (this.loopTimer) clearTimeout(this.loopTimer)
    this.loopTimer = null
    void this.fill()
  }

  private filling = false

  /** A batch ended while claiming: claim again once done (its thread would otherwise wait for a poll). */
  private refill = false

  private async fill(): Promise<void> {
    if (this.filling) {
      this.refill = true
      return
    }
    this.filling = true
    this.refill = false
    let claimedAny = false
    try {
      // The running run's inputs are read by every thread before this server claims its batches
      // (looked for while a thread is between runs: not once per batch).
      if (this.lanes.some((l) => !l.busy && l.last === null)) await this.prepareRunning()
      for (const [i, lane] of this.lanes.entries()) {
        if (this.stopped) break
        if (lane.busy) continue
        // Each thread keeps to a range of batches: the one after its last (the store's claimBatch).
        const batch = await this.store.fireRuns.claimBatch(
          this.server,
          this.opts.settings.claimTimeoutMs,
          lane.last,
        )
        if (!batch) {
          // Nothing to claim: the thread is between runs (the next poll looks for a new one).
          lane.last = null
          break
        }
        claimedAny = true
        lane.busy = true
        lane.last = { runId: batch.runId, seq: batch.seq }
        const p: Promise<void> = this.runBatch(batch, i).finally(() => {
          lane.busy = false
          this.running.delete(p)
          this.kick()
        })
        this.running.add(p)
      }
    } catch (err) {
      this.warn('fire consequence: claiming a batch failed', err)
    } finally {
      this.filling = false
    }
    if (this.refill && !this.stopped) return this.fill()
    if (!this.stopped && !this.loopTimer && (!claimedAny || this.running.size === 0)) {
      this.loopTimer = setTimeout(() => {
        this.loopTimer = null
        void this.fill()
      }, this.opts.settings.pollMs)
      this.loopTimer.unref()
    }
  }

  /**
   * Has every thread read the running run's inputs, once per run: when this server learns of a run
   * (its loop's poll), before its first claim — so no claimed batch waits on the read, and a server
   * that joins a run runs its first batch at full speed. A read that failed is tried again with the
   * next poll (and each batch's thread is sent the inputs again).
   */
  private async prepareRunning(): Promise<void> {
    if (!this.pool.prepare) return
    const run = (await this.store.fireRuns.runs(1))[0]
    if (!run || run.status !== 'running') return
    let ready = this.prepared.get(run.id)
    if (!ready) {
      const prepare = this.pool.prepare.bind(this.pool)
      const t0 = performance.now()
      ready = this.inputsFor(run.id, run.settings, run.referenceTime)
        .then((inputs) => prepare(inputs))
        .then(() => {
          this.inputsReadMs = performance.now() - t0
        })
      for (const id of this.prepared.keys()) if (id !== run.id) this.prepared.delete(id)
      this.prepared.set(run.id, ready)
      ready.catch(() => this.prepared.delete(run.id))
    }
    await ready.catch((err: unknown) =>
      this.warn(`fire consequence: reading run ${run.id}'s inputs failed`, err),
    )
  }

  /** Waits until no batch of this server is running (tests, benchmarks, close). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running])
  }

  private inputsFor(
    runId: number,
    runSettings: Record<string, unknown>,
    referenceTime: string,
  ): Promise<FireRunInputs> {
    const have = this.inputs.get(runId)
    if (have) return have
    const hours = typeof runSettings.hours === 'number' ? runSettings.hours : this.opts.settings.hours
    const load = async (): Promise<FireRunInputs> => {
      // The worker reads the landscape and assets itself when it can open the store (not this thread).
      const source = runInputsSource(
        this.store,
        this.opts.settings,
        this.opts.window,
        String(runId),
        hours,
        runSettings,
        referenceTime,
      )
      if (source) return source
      return runInputs(
        this.store,
        this.opts.settings,
        this.opts.window,
        String(runId),
        hours,
        runSettings,
        referenceTime,
      )
    }
    const p = load()
    p.catch(() => this.inputs.delete(runId))
    // Only the newest run's inputs are kept.
    for (const id of this.inputs.keys()) if (id !== runId) this.inputs.delete(id)
    this.inputs.set(runId, p)
    return p
  }

  private async runBatch(b: ClaimedFireBatch, lane: number): Promise<void> {
    const t0 = performance.now()
    const beat = setInterval(
      () =>
        void Promise.resolve(this.store.fireRuns.heartbeat(b.runId, b.seq, this.server, b.attempt)).catch(
          (err: unknown) => this.warn('fire consequence: heartbeat failed', err),
        ),
      Math.max(50, Math.floor(this.opts.settings.claimTimeoutMs / 3)),
    )
    beat.unref()
    try {
      const inputs = await this.inputsFor(b.runId, b.settings, await this.referenceTime(b))
      const results = await this.pool.run(() => inputs, inputs.key, b.startHour, b.ignitions, lane)
      clearInterval(beat)
      const done = await this.store.fireRuns.completeBatch(
        b,
        this.server,
        results,
        performance.now() - t0,
        new Date().toISOString(),
      )
      if (done.runReady) await this.finish(b.runId)
    } catch (err) {
      clearInterval(beat)
      this.warn(`fire consequence: batch ${b.runId}/${b.seq} failed`, err)
      await Promise.resolve(
        this.store.fireRuns.failBatch(
          b,
          this.server,
          err instanceof Error ? err.message : String(err),
          this.opts.settings.maxAttempts,
          new Date().toISOString(),
        ),
      ).catch((e: unknown) => this.warn('fire consequence: recording a failed batch failed', e))
    }
  }

  /** The run's forecast reference time (hour 0), read once per run with its inputs. */
  private async referenceTime(b: ClaimedFireBatch): Promise<string> {
    if (this.inputs.has(b.runId)) return b.startTime // not used: the inputs are made
    const run = await this.store.fireRuns.run(b.runId)
    return run?.referenceTime ?? b.startTime
  }

  /**
   * Writes a run's outputs (in a worker thread, writeOutputsInWorker.ts) and marks it complete; on
   * any error the run fails and the previous results stay (the outputs are written in one transaction).
   */
  async finish(runId: number): Promise<void> {
    if (this.finishing.has(runId)) return
    this.finishing.add(runId)
    try {
      const progress = await this.store.fireRuns.run(runId)
      if (!progress || progress.status !== 'running') return
      const run: FireRunRow = progress
      const at = new Date()
      let summaries: CircuitSummary[]
      try {
        // Off the server thread: reading every result and rewriting the layers took seconds of it.
        summaries = await writeRunOutputsOffThread(
          this.store,
          run,
          this.opts.settings.outputs,
          at,
          this.opts.window.timeZone,
        )
      } catch (err) {
        this.warn(`fire consequence: writing run ${runId}'s outputs failed`, err)
        await this.store.fireRuns.finishRun(
          runId,
          { status: 'failed', error: `outputs: ${err instanceof Error ? err.message : String(err)}` },
          new Date().toISOString(),
        )
        return
      }
      await this.store.fireRuns.finishRun(
        runId,
        {
          status: 'complete',
          circuits: summaries.map((s) => ({
            circuit: s.circuit,
            summary: { ignitions: s.ignitions, max: s.max, p90: s.p90 },
          })),
        },
        at.toISOString(),
      )
      await this.pruneRuns()
    } finally {
      this.finishing.delete(runId)
      this.inputs.delete(runId)
      this.prepared.delete(runId)
    }
  }

  /** Keeps the batches of the newest `keepDetailRuns` finished runs only (each run's are large). */
  private async pruneRuns(): Promise<void> {
    await Promise.resolve(this.store.fireRuns.pruneRunDetail(this.opts.settings.keepDetailRuns)).catch(
      (err: unknown) => this.warn('fire consequence: deleting old runs’ batches failed', err),
    )
  }

  async close(): Promise<void> {
    this.stopLoop()
    await this.idle()
    await this.pool.close()
  }
}
