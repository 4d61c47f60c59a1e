import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import { insertInto, sqliteCodec } from './rows/codec'

// The job table of the territory's fire consequence run (migration 150; PostgreSQL data/004):
// runs, their batches of ignitions (one forecast start each), the results per ignition and per
// circuit. The SQLite store's one process claims batches in a write transaction; the PostgreSQL
// store's servers claim them with FOR UPDATE SKIP LOCKED (pg/pgFireRunStore.ts). Both keep each
// claimer to a range of consecutive batches (claimBatch's `after`, rangeStart).

/** An ignition point on a line: which circuit, its id within the run, where. */
export interface FireIgnition {
  circuit: string
  ignitionId: string
  lon: number
  lat: number
}

/** What one ignition's fire burned within the run's hours. */
export interface FireIgnitionResult extends FireIgnition {
  burnedAcres: number
  buildings: number
  population: number
  criticalFacilities: number
}

/** A stored per-ignition result with the forecast start it belongs to. */
export interface StoredIgnitionResult extends FireIgnitionResult {
  startHour: number
}

export type FireRunStatus = 'running' | 'complete' | 'failed'
export type FireRunTrigger = 'weather' | 'admin'

export interface NewFireBatch {
  startHour: number
  startTime: string
  ignitions: readonly FireIgnition[]
}

export interface NewFireRun {
  trigger: FireRunTrigger
  requestedBy: string | null
  windVersion: string | null
  referenceTime: string
  startHours: readonly number[]
  settings: Record<string, unknown>
  provenance: Record<string, unknown>
  batches: readonly NewFireBatch[]
  createdAt: string
}

export interface FireRunRow {
  id: number
  status: FireRunStatus
  trigger: FireRunTrigger
  requestedBy: string | null
  windVersion: string | null
  referenceTime: string
  startHours: number[]
  settings: Record<string, unknown>
  provenance: Record<string, unknown>
  batchesTotal: number
  batchesDone: number
  ignitionsTotal: number
  createdAt: string
  finishedAt: string | null
  error: string | null
}

/** A batch as its claimer receives it. `attempt` identifies this claim (a later claim outbids it). */
export interface ClaimedFireBatch {
  runId: number
  seq: number
  startHour: number
  startTime: string
  ignitions: FireIgnition[]
  attempt: number
  settings: Record<string, unknown>
}

/** Per server: batches done and running, and the time its done batches took. */
export interface FireRunServerCount {
  server: string
  done: number
  running: number
  batchMs: number
}

export interface FireRunProgress extends FireRunRow {
  batches: { queued: number; running: number; done: number; failed: number }
  servers: FireRunServerCount[]
}

export interface FireCircuitResult {
  circuit: string
  summary: Record<string, unknown>
}

export type FireRunOutcome =
  { status: 'complete'; circuits: readonly FireCircuitResult[] } | { status: 'failed'; error: string }

/** Fire consequence runs (migration 150 / data/004). */
export interface FireRunStorage {
  /** Records a run and its batches; refused (created false, the running run's id) while a run is running. */
  createRun(run: NewFireRun): Awaitable<{ id: number; created: boolean }>
  /**
   * Claims a queued batch of a running run — or a running one whose heartbeat is older than
   * `staleMs` (its claimer died) — for `server`; null when there is none. Claims keep locality
   * (docs/fire.md "Claims keep to a range"): the batch after `after` (the claimer's last batch)
   * while it is claimable; otherwise the start of a new range (`rangeStart`).
   */
  claimBatch(server: string, staleMs: number, after?: FireBatchRef | null): Awaitable<ClaimedFireBatch | null>
  /** Keeps a claim alive; false when the claim is no longer this server's. */
  heartbeat(runId: number, seq: number, server: string, attempt: number): Awaitable<boolean>
  /**
   * Stores a batch's results and marks it done when the claim is still this one's. `runReady`
   * is true for exactly one completer: the one whose batch was the run's last.
   */
  completeBatch(
    b: ClaimedFireBatch,
    server: string,
    results: readonly FireIgnitionResult[],
    durationMs: number,
    at: string,
  ): Awaitable<{ accepted: boolean; runReady: boolean }>
  /** A batch failed: queued again below `maxAttempts` attempts, otherwise the run fails. */
  failBatch(
    b: ClaimedFireBatch,
    server: string,
    error: string,
    maxAttempts: number,
    at: string,
  ): Awaitable<void>
  /** Every per-ignition result of a run. */
  ignitionResults(runId: number): Awaitable<StoredIgnitionResult[]>
  /** Ends a running run (true) with its per-circuit results or its error; false when it was not running. */
  finishRun(runId: number, outcome: FireRunOutcome, at: string): Awaitable<boolean>
  circuitResults(runId: number): Awaitable<FireCircuitResult[]>
  /**
   * Deletes the batches (ignitions and per-ignition results) of every finished run but the newest
   * `keep`; their run rows and per-circuit results stay. Returns the batches deleted.
   */
  pruneRunDetail(keep: number): Awaitable<number>
  /** Newest first. */
  runs(limit: number): Awaitable<FireRunRow[]>
  run(id: number): Awaitable<FireRunProgress | undefined>
  /** Running runs whose every batch is done (a finaliser that died leaves one). */
  readyRuns(): Awaitable<number[]>
  /** The newest run made for a wind version (any status). */
  runForWind(windVersion: string): Awaitable<FireRunRow | undefined>
}

/** A batch of a run (a claimer's last batch: it claims the next one while that is claimable). */
export interface FireBatchRef {
  runId: number
  seq: number
}

/** A run of consecutive claimable batches (seq first … first + n − 1) of a running run. */
export interface ClaimIslandRow {
  run_id: number
  first: number
  n: number
}

/**
 * Where a claimer without a next batch starts (both stores): in the oldest running run, the longest
 * run of consecutive claimable batches (the first of equals) — at its first batch when nothing
 * precedes it in the run (seq 0: the run's start), otherwise at its middle, so that the claimer
 * working towards it from below keeps the lower half and the two work far apart (work splitting,
 * as in work stealing). Null when no batch is claimable.
 */
export function rangeStart(islands: readonly ClaimIslandRow[]): FireBatchRef | null {
  let best: { runId: number; first: number; n: number } | null = null
  for (const r of islands) {
    const runId = Number(r.run_id)
    const first = Number(r.first)
    const n = Number(r.n)
    if (
      !best ||
      runId < best.runId ||
      (runId === best.runId && (n > best.n || (n === best.n && first < best.first)))
    )
      best = { runId, first, n }
  }
  if (!best) return null
  return { runId: best.runId, seq: best.first === 0 ? 0 : best.first + Math.floor(best.n / 2) }
}

/**
 * The islands of claimable batches of the running runs (both stores; CLAIMABLE is each store's
 * predicate on `b`): consecutive seqs share `seq − row_number()`.
 */
export const claimIslandsSql = (claimable: string) =>
  `SELECT run_id, min(seq) AS first, count(*) AS n FROM (
     SELECT b.run_id, b.seq, b.seq - row_number() OVER (PARTITION BY b.run_id ORDER BY b.seq) AS island
     FROM fire_run_batches b JOIN fire_runs r ON r.id = b.run_id
     WHERE r.status = 'running' AND (${claimable})) c
   GROUP BY run_id, island`

/** A fire_runs row as read (both stores). */
export interface FireRunDbRow {
  id: number
  status: string
  trigger: string
  requested_by: string | null
  wind_version: string | null
  reference_time: string
  start_hours: string
  settings: string
  provenance: string
  batches_total: number
  batches_done: number
  ignitions_total: number
  created_at: string
  finished_at: string | null
  error: string | null
}

export function toFireRun(r: FireRunDbRow): FireRunRow {
  return {
    id: Number(r.id),
    status: r.status as FireRunStatus,
    trigger: r.trigger as FireRunTrigger,
    requestedBy: r.requested_by,
    windVersion: r.wind_version,
    referenceTime: r.reference_time,
    startHours: JSON.parse(r.start_hours) as number[],
    settings: JSON.parse(r.settings) as Record<string, unknown>,
    provenance: JSON.parse(r.provenance) as Record<string, unknown>,
    batchesTotal: r.batches_total,
    batchesDone: r.batches_done,
    ignitionsTotal: r.ignitions_total,
    createdAt: r.created_at,
    finishedAt: r.finished_at,
    error: r.error,
  }
}

/** The columns of a batch's stored results (fire_run_batches.results, JSON): one entry per ignition. */
interface BatchResultColumns {
  ignitionId: string[]
  circuit: string[]
  lon: number[]
  lat: number[]
  burnedAcres: number[]
  buildings: number[]
  population: number[]
  criticalFacilities: number[]
}

/**
 * A batch's results as stored with the batch (migrations 200 / data 021): one JSON text of columns,
 * not a row per ignition — a completer writes its batch in one update, with no per-row index to keep
 * (on PostgreSQL the 200 rows of a batch cost 3.8 ms of the database's CPU as rows, docs/fire.md).
 */
export function encodeBatchResults(results: readonly FireIgnitionResult[]): string {
  const columns: BatchResultColumns = {
    ignitionId: results.map((r) => r.ignitionId),
    circuit: results.map((r) => r.circuit),
    lon: results.map((r) => r.lon),
    lat: results.map((r) => r.lat),
    burnedAcres: results.map((r) => r.burnedAcres),
    buildings: results.map((r) => r.buildings),
    population: results.map((r) => r.population),
    criticalFacilities: results.map((r) => r.criticalFacilities),
  }
  return JSON.stringify(columns)
}

/** A stored batch's results (encodeBatchResults) with its forecast start, appended to `out`. */
export function decodeBatchResults(startHour: number, text: string, out: StoredIgnitionResult[]): void {
  const c = JSON.parse(text) as BatchResultColumns
  for (let i = 0; i < c.ignitionId.length; i++)
    out.push({
      startHour,
      ignitionId: c.ignitionId[i]!,
      circuit: c.circuit[i]!,
      lon: c.lon[i]!,
      lat: c.lat[i]!,
      burnedAcres: c.burnedAcres[i]!,
      buildings: c.buildings[i]!,
      population: c.population[i]!,
      criticalFacilities: c.criticalFacilities[i]!,
    })
}

/** Every stored result of a run's batches (rows of start_hour and results, in batch order). */
export function batchResults(
  rows: readonly { start_hour: number; results: string }[],
): StoredIgnitionResult[] {
  const out: StoredIgnitionResult[] = []
  for (const r of rows) decodeBatchResults(Number(r.start_hour), r.results, out)
  return out
}

export interface BatchCountRow {
  status: string
  claimed_by: string | null
  n: number
  ms: number | null
}

/** Batch counts by status and per server from (status, claimed_by, count, duration) rows. */
export function progressOf(run: FireRunRow, rows: readonly BatchCountRow[]): FireRunProgress {
  const batches = { queued: 0, running: 0, done: 0, failed: 0 }
  const servers = new Map<string, FireRunServerCount>()
  for (const r of rows) {
    const n = Number(r.n)
    if (r.status in batches) batches[r.status as keyof typeof batches] += n
    if (!r.claimed_by || (r.status !== 'done' && r.status !== 'running')) continue
    const s = servers.get(r.claimed_by) ?? { server: r.claimed_by, done: 0, running: 0, batchMs: 0 }
    if (r.status === 'done') {
      s.done += n
      s.batchMs += Number(r.ms ?? 0)
    } else s.running += n
    servers.set(r.claimed_by, s)
  }
  return { ...run, batches, servers: [...servers.values()].sort((a, b) => a.server.localeCompare(b.server)) }
}

/** The columns of a new run (running), as both stores insert it; JSON columns are text in both. */
export const FIRE_RUN_COLUMNS = [
  'status',
  'trigger',
  'requested_by',
  'wind_version',
  'reference_time',
  'start_hours',
  'settings',
  'provenance',
  'batches_total',
  'ignitions_total',
  'created_at',
] as const

export function fireRunToParams(run: NewFireRun): unknown[] {
  return [
    'running',
    run.trigger,
    run.requestedBy,
    run.windVersion,
    run.referenceTime,
    JSON.stringify(run.startHours),
    JSON.stringify(run.settings),
    JSON.stringify(run.provenance),
    run.batches.length,
    run.batches.reduce((n, b) => n + b.ignitions.length, 0),
    run.createdAt,
  ]
}

const ACTIVE = `'running'`

/** The SQLite job table: the one process's worker loop claims batches in a write transaction. */
export class FireRunStore implements FireRunStorage {
  constructor(private readonly db: Database.Database) {}

  createRun(run: NewFireRun): { id: number; created: boolean } {
    return this.db
      .transaction(() => {
        const active = this.db
          .prepare(`SELECT id FROM fire_runs WHERE status = ${ACTIVE} ORDER BY id LIMIT 1`)
          .pluck()
          .get() as number | undefined
        if (active !== undefined) return { id: active, created: false }
        const id = Number(
          this.db.prepare(insertInto(sqliteCodec, 'fire_runs', FIRE_RUN_COLUMNS)).run(fireRunToParams(run))
            .lastInsertRowid,
        )
        const put = this.db.prepare(
          'INSERT INTO fire_run_batches (run_id, seq, start_hour, start_time, ignitions) VALUES (?, ?, ?, ?, ?)',
        )
        run.batches.forEach((b, seq) =>
          put.run(id, seq, b.startHour, b.startTime, JSON.stringify(b.ignitions)),
        )
        return { id, created: true }
      })
      .immediate()
  }

  claimBatch(server: string, staleMs: number, after?: FireBatchRef | null): ClaimedFireBatch | null {
    const now = Date.now()
    const claimable = `b.status = 'queued' OR (b.status = 'running' AND b.heartbeat_ms < @stale)`
    const select = `SELECT b.run_id, b.seq, b.start_hour, b.start_time, b.ignitions, b.attempts, r.settings
      FROM fire_run_batches b JOIN fire_runs r ON r.id = b.run_id
      WHERE r.status = 'running' AND (${claimable})`
    return this.db
      .transaction(() => {
        const stale = now - staleMs
        // The batch after this claimer's last one; else the start of a new range (rangeStart).
        let row = after
          ? (this.db
              .prepare(`${select} AND b.run_id = @run AND b.seq = @seq`)
              .get({ stale, run: after.runId, seq: after.seq + 1 }) as ClaimRow | undefined)
          : undefined
        if (!row) {
          const start = rangeStart(
            this.db.prepare(claimIslandsSql(claimable)).all({ stale }) as ClaimIslandRow[],
          )
          if (start)
            row = this.db
              .prepare(`${select} AND b.run_id = @run ORDER BY b.seq < @seq, b.seq LIMIT 1`)
              .get({ stale, run: start.runId, seq: start.seq }) as ClaimRow | undefined
        }
        if (!row) return null
        this.db
          .prepare(
            `UPDATE fire_run_batches SET status = 'running', claimed_by = ?, claimed_at = ?, heartbeat_ms = ?,
           attempts = attempts + 1 WHERE run_id = ? AND seq = ?`,
          )
          .run(server, new Date(now).toISOString(), now, row.run_id, row.seq)
        return claimed(row)
      })
      .immediate()
  }

  heartbeat(runId: number, seq: number, server: string, attempt: number): boolean {
    return (
      this.db
        .prepare(
          `UPDATE fire_run_batches SET heartbeat_ms = ? WHERE run_id = ? AND seq = ? AND status = 'running'
           AND claimed_by = ? AND attempts = ?`,
        )
        .run(Date.now(), runId, seq, server, attempt).changes === 1
    )
  }

  completeBatch(
    b: ClaimedFireBatch,
    server: string,
    results: readonly FireIgnitionResult[],
    durationMs: number,
    at: string,
  ): { accepted: boolean; runReady: boolean } {
    return this.db
      .transaction(() => {
        const done = this.db
          .prepare(
            `UPDATE fire_run_batches SET status = 'done', finished_at = ?, duration_ms = ?, error = NULL, results = ?
           WHERE run_id = ? AND seq = ? AND status = 'running' AND claimed_by = ? AND attempts = ?`,
          )
          .run(
            at,
            Math.round(durationMs),
            encodeBatchResults(results),
            b.runId,
            b.seq,
            server,
            b.attempt,
          ).changes
        if (done !== 1) return { accepted: false, runReady: false }
        const run = this.db
          .prepare(
            `UPDATE fire_runs SET batches_done = batches_done + 1 WHERE id = ? RETURNING batches_done, batches_total, status`,
          )
          .get(b.runId) as { batches_done: number; batches_total: number; status: string }
        return {
          accepted: true,
          runReady: run.status === 'running' && run.batches_done === run.batches_total,
        }
      })
      .immediate()
  }

  failBatch(b: ClaimedFireBatch, server: string, error: string, maxAttempts: number, at: string): void {
    this.db
      .transaction(() => {
        const changed = this.db
          .prepare(
            `UPDATE fire_run_batches SET status = CASE WHEN attempts >= ? THEN 'failed' ELSE 'queued' END, error = ?,
           finished_at = ? WHERE run_id = ? AND seq = ? AND status = 'running' AND claimed_by = ? AND attempts = ?
           RETURNING status`,
          )
          .get(maxAttempts, error, at, b.runId, b.seq, server, b.attempt) as { status: string } | undefined
        if (changed?.status === 'failed')
          this.db
            .prepare(
              `UPDATE fire_runs SET status = 'failed', error = ?, finished_at = ? WHERE id = ? AND status = 'running'`,
            )
            .run(`batch ${b.seq} (forecast hour ${b.startHour}): ${error}`, at, b.runId)
      })
      .immediate()
  }

  pruneRunDetail(keep: number): number {
    return this.db
      .prepare(
        `DELETE FROM fire_run_batches WHERE run_id IN
         (SELECT id FROM fire_runs WHERE status <> 'running' ORDER BY id DESC LIMIT -1 OFFSET ?)`,
      )
      .run(keep).changes
  }

  ignitionResults(runId: number): StoredIgnitionResult[] {
    return batchResults(
      this.db
        .prepare(
          `SELECT start_hour, results FROM fire_run_batches WHERE run_id = ? AND status = 'done'
           ORDER BY start_hour, seq`,
        )
        .all(runId) as { start_hour: number; results: string }[],
    )
  }

  finishRun(runId: number, outcome: FireRunOutcome, at: string): boolean {
    return this.db
      .transaction(() => {
        const status = outcome.status
        const error = outcome.status === 'failed' ? outcome.error : null
        const changed = this.db
          .prepare(
            `UPDATE fire_runs SET status = ?, error = ?, finished_at = ? WHERE id = ? AND status = 'running'`,
          )
          .run(status, error, at, runId).changes
        if (changed !== 1) return false
        if (outcome.status === 'complete') {
          const put = this.db.prepare(
            'INSERT INTO fire_circuit_results (run_id, circuit, summary) VALUES (?, ?, ?)',
          )
          for (const c of outcome.circuits) put.run(runId, c.circuit, JSON.stringify(c.summary))
        }
        return true
      })
      .immediate()
  }

  circuitResults(runId: number): FireCircuitResult[] {
    return (
      this.db
        .prepare('SELECT circuit, summary FROM fire_circuit_results WHERE run_id = ? ORDER BY circuit')
        .all(runId) as { circuit: string; summary: string }[]
    ).map((r) => ({ circuit: r.circuit, summary: JSON.parse(r.summary) as Record<string, unknown> }))
  }

  runs(limit: number): FireRunRow[] {
    return (
      this.db.prepare('SELECT * FROM fire_runs ORDER BY id DESC LIMIT ?').all(limit) as FireRunDbRow[]
    ).map(toFireRun)
  }

  run(id: number): FireRunProgress | undefined {
    const row = this.db.prepare('SELECT * FROM fire_runs WHERE id = ?').get(id) as FireRunDbRow | undefined
    if (!row) return undefined
    const counts = this.db
      .prepare(
        `SELECT status, claimed_by, count(*) AS n, sum(duration_ms) AS ms FROM fire_run_batches WHERE run_id = ?
         GROUP BY status, claimed_by`,
      )
      .all(id) as BatchCountRow[]
    return progressOf(toFireRun(row), counts)
  }

  readyRuns(): number[] {
    return this.db
      .prepare(
        `SELECT id FROM fire_runs WHERE status = 'running' AND batches_done = batches_total ORDER BY id`,
      )
      .pluck()
      .all() as number[]
  }

  runForWind(windVersion: string): FireRunRow | undefined {
    const row = this.db
      .prepare('SELECT * FROM fire_runs WHERE wind_version = ? ORDER BY id DESC LIMIT 1')
      .get(windVersion) as FireRunDbRow | undefined
    return row ? toFireRun(row) : undefined
  }
}

export interface ClaimRow {
  run_id: number
  seq: number
  start_hour: number
  start_time: string
  ignitions: string
  attempts: number
  settings: string
}

/** A claimed row as the claimer's batch (`attempts` is the value before the claim's increment). */
export function claimed(row: ClaimRow): ClaimedFireBatch {
  return {
    runId: Number(row.run_id),
    seq: row.seq,
    startHour: row.start_hour,
    startTime: row.start_time,
    ignitions: JSON.parse(row.ignitions) as FireIgnition[],
    attempt: row.attempts + 1,
    settings: JSON.parse(row.settings) as Record<string, unknown>,
  }
}
