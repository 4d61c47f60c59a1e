import type {
  ClaimedFireBatch,
  ClaimIslandRow,
  FireBatchRef,
  FireCircuitResult,
  FireIgnitionResult,
  FireRunOutcome,
  FireRunProgress,
  FireRunRow,
  FireRunStorage,
  NewFireRun,
  StoredIgnitionResult,
} from '../fireRunStore'
import {
  batchResults,
  encodeBatchResults,
  claimed,
  claimIslandsSql,
  FIRE_RUN_COLUMNS,
  fireRunToParams,
  progressOf,
  rangeStart,
  toFireRun,
  type BatchCountRow,
  type ClaimRow,
  type FireRunDbRow,
} from '../fireRunStore'
import { ADVISORY_LOCK_SPACE, type PgDatabase } from './pgDatabase'
import { insertInto, pgCodec } from '../rows/codec'

/** A batch another server may take: queued, or running with a heartbeat older than $1 ms (its server died). */
const CLAIMABLE = `b.status = 'queued' OR (b.status = 'running'
  AND b.heartbeat_at < now() - make_interval(secs => $1::double precision / 1000))`

/** Second key of the advisory lock that serialises run creation (one running run at a time). */
const CREATE_RUN_LOCK = 1101

/**
 * The fire consequence job table in PostgreSQL (migration data/004): every server's worker loop
 * claims a batch with `SELECT … FOR UPDATE SKIP LOCKED`, so two servers never take the same
 * batch and neither waits for the other's claim; a running batch whose heartbeat is older than
 * the claim timeout (its server died) is taken again. Claims keep to a range of consecutive
 * batches (claimBatch), so each server's block cache serves mostly its own batches.
 */
export class PgFireRunStore implements FireRunStorage {
  constructor(private readonly db: PgDatabase) {}

  async createRun(run: NewFireRun): Promise<{ id: number; created: boolean }> {
    return this.db.tx(async () => {
      await this.db.run('SELECT pg_advisory_xact_lock($1, $2)', [ADVISORY_LOCK_SPACE, CREATE_RUN_LOCK])
      const active = await this.db.one<{ id: number }>(
        `SELECT id FROM fire_runs WHERE status = 'running' ORDER BY id LIMIT 1`,
      )
      if (active) return { id: Number(active.id), created: false }
      const row = await this.db.one<{ id: number }>(
        `${insertInto(pgCodec, 'fire_runs', FIRE_RUN_COLUMNS)} RETURNING id`,
        fireRunToParams(run),
      )
      const id = Number(row?.id)
      if (run.batches.length > 0)
        await this.db.run(
          `INSERT INTO fire_run_batches (run_id, seq, start_hour, start_time, ignitions)
           SELECT $1, s - 1, h, t, i FROM unnest($2::int[], $3::text[], $4::text[]) WITH ORDINALITY AS u(h, t, i, s)`,
          [
            id,
            run.batches.map((b) => b.startHour),
            run.batches.map((b) => b.startTime),
            run.batches.map((b) => JSON.stringify(b.ignitions)),
          ],
        )
      return { id, created: true }
    })
  }

  async claimBatch(
    server: string,
    staleMs: number,
    after?: FireBatchRef | null,
  ): Promise<ClaimedFireBatch | null> {
    // The batch after this claimer's last one (a primary-key lookup); else the start of a new
    // range (rangeStart over the islands of claimable batches: one scan of the run's batches,
    // only when a claimer starts or its range runs into another's), or the first claimable one
    // after it when another claimer locked it meanwhile (SKIP LOCKED: nobody waits).
    if (after) {
      const next = await this.claimWhere(server, staleMs, 'AND b.run_id = $4 AND b.seq = $5', '', [
        after.runId,
        after.seq + 1,
      ])
      if (next) return next
    }
    const start = rangeStart(await this.db.query<ClaimIslandRow>(claimIslandsSql(CLAIMABLE), [staleMs]))
    if (!start) return null
    return this.claimWhere(server, staleMs, 'AND b.run_id = $4', 'ORDER BY b.seq < $5, b.seq', [
      start.runId,
      start.seq,
    ])
  }

  /** Claims the first claimable batch of a running run that `where` (params $4…) selects in `order`. */
  private async claimWhere(
    server: string,
    staleMs: number,
    where: string,
    order: string,
    params: unknown[],
  ): Promise<ClaimedFireBatch | null> {
    const row = await this.db.one<ClaimRow>(
      `WITH next AS (
         SELECT b.run_id, b.seq FROM fire_run_batches b JOIN fire_runs r ON r.id = b.run_id
         WHERE r.status = 'running' AND (${CLAIMABLE}) ${where}
         ${order} LIMIT 1
         FOR UPDATE OF b SKIP LOCKED)
       UPDATE fire_run_batches b SET status = 'running', claimed_by = $2, claimed_at = $3, heartbeat_at = now(),
         attempts = b.attempts + 1
       FROM next, fire_runs r
       WHERE b.run_id = next.run_id AND b.seq = next.seq AND r.id = b.run_id
       RETURNING b.run_id, b.seq, b.start_hour, b.start_time, b.ignitions, b.attempts - 1 AS attempts, r.settings`,
      [staleMs, server, new Date().toISOString(), ...params],
    )
    return row ? claimed(row) : null
  }

  async heartbeat(runId: number, seq: number, server: string, attempt: number): Promise<boolean> {
    return (
      (await this.db.run(
        `UPDATE fire_run_batches SET heartbeat_at = now() WHERE run_id = $1 AND seq = $2 AND status = 'running'
         AND claimed_by = $3 AND attempts = $4`,
        [runId, seq, server, attempt],
      )) === 1
    )
  }

  async completeBatch(
    b: ClaimedFireBatch,
    server: string,
    results: readonly FireIgnitionResult[],
    durationMs: number,
    at: string,
  ): Promise<{ accepted: boolean; runReady: boolean }> {
    return this.db.tx(async () => {
      const done = await this.db.run(
        `UPDATE fire_run_batches SET status = 'done', finished_at = $1, duration_ms = $2, error = NULL, results = $7
         WHERE run_id = $3 AND seq = $4 AND status = 'running' AND claimed_by = $5 AND attempts = $6`,
        [at, Math.round(durationMs), b.runId, b.seq, server, b.attempt, encodeBatchResults(results)],
      )
      if (done !== 1) return { accepted: false, runReady: false }
      // The row lock of this UPDATE orders the completers: exactly one sees the last batch counted.
      const run = await this.db.one<{ batches_done: number; batches_total: number; status: string }>(
        `UPDATE fire_runs SET batches_done = batches_done + 1 WHERE id = $1 RETURNING batches_done, batches_total, status`,
        [b.runId],
      )
      return {
        accepted: true,
        runReady: run !== undefined && run.status === 'running' && run.batches_done === run.batches_total,
      }
    })
  }

  async failBatch(
    b: ClaimedFireBatch,
    server: string,
    error: string,
    maxAttempts: number,
    at: string,
  ): Promise<void> {
    await this.db.tx(async () => {
      const changed = await this.db.one<{ status: string }>(
        `UPDATE fire_run_batches SET status = CASE WHEN attempts >= $1 THEN 'failed' ELSE 'queued' END, error = $2,
         finished_at = $3 WHERE run_id = $4 AND seq = $5 AND status = 'running' AND claimed_by = $6 AND attempts = $7
         RETURNING status`,
        [maxAttempts, error, at, b.runId, b.seq, server, b.attempt],
      )
      if (changed?.status === 'failed')
        await this.db.run(
          `UPDATE fire_runs SET status = 'failed', error = $1, finished_at = $2 WHERE id = $3 AND status = 'running'`,
          [`batch ${b.seq} (forecast hour ${b.startHour}): ${error}`, at, b.runId],
        )
    })
  }

  async pruneRunDetail(keep: number): Promise<number> {
    return this.db.run(
      `DELETE FROM fire_run_batches WHERE run_id IN
       (SELECT id FROM fire_runs WHERE status <> 'running' ORDER BY id DESC OFFSET $1)`,
      [keep],
    )
  }

  async ignitionResults(runId: number): Promise<StoredIgnitionResult[]> {
    return batchResults(
      await this.db.query<{ start_hour: number; results: string }>(
        `SELECT start_hour, results FROM fire_run_batches WHERE run_id = $1 AND status = 'done'
         ORDER BY start_hour, seq`,
        [runId],
      ),
    )
  }

  async finishRun(runId: number, outcome: FireRunOutcome, at: string): Promise<boolean> {
    return this.db.tx(async () => {
      const error = outcome.status === 'failed' ? outcome.error : null
      const changed = await this.db.run(
        `UPDATE fire_runs SET status = $1, error = $2, finished_at = $3 WHERE id = $4 AND status = 'running'`,
        [outcome.status, error, at, runId],
      )
      if (changed !== 1) return false
      if (outcome.status === 'complete' && outcome.circuits.length > 0)
        await this.db.run(
          `INSERT INTO fire_circuit_results (run_id, circuit, summary) SELECT $1, * FROM unnest($2::text[], $3::text[])`,
          [
            runId,
            outcome.circuits.map((c) => c.circuit),
            outcome.circuits.map((c) => JSON.stringify(c.summary)),
          ],
        )
      return true
    })
  }

  async circuitResults(runId: number): Promise<FireCircuitResult[]> {
    const rows = await this.db.query<{ circuit: string; summary: string }>(
      'SELECT circuit, summary FROM fire_circuit_results WHERE run_id = $1 ORDER BY circuit COLLATE "C"',
      [runId],
    )
    return rows.map((r) => ({
      circuit: r.circuit,
      summary: JSON.parse(r.summary) as Record<string, unknown>,
    }))
  }

  async runs(limit: number): Promise<FireRunRow[]> {
    return (
      await this.db.query<FireRunDbRow>('SELECT * FROM fire_runs ORDER BY id DESC LIMIT $1', [limit])
    ).map(toFireRun)
  }

  async run(id: number): Promise<FireRunProgress | undefined> {
    const row = await this.db.one<FireRunDbRow>('SELECT * FROM fire_runs WHERE id = $1', [id])
    if (!row) return undefined
    const counts = await this.db.query<BatchCountRow>(
      `SELECT status, claimed_by, count(*) AS n, sum(duration_ms) AS ms FROM fire_run_batches WHERE run_id = $1
       GROUP BY status, claimed_by`,
      [id],
    )
    return progressOf(toFireRun(row), counts)
  }

  async readyRuns(): Promise<number[]> {
    const rows = await this.db.query<{ id: number }>(
      `SELECT id FROM fire_runs WHERE status = 'running' AND batches_done = batches_total ORDER BY id`,
    )
    return rows.map((r) => Number(r.id))
  }

  async runForWind(windVersion: string): Promise<FireRunRow | undefined> {
    const row = await this.db.one<FireRunDbRow>(
      'SELECT * FROM fire_runs WHERE wind_version = $1 ORDER BY id DESC LIMIT 1',
      [windVersion],
    )
    return row ? toFireRun(row) : undefined
  }
}
