import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'

export type IngestJobStatus = 'queued' | 'running' | 'succeeded' | 'failed'

/** An ingestion API job (src/server/ingest): what was sent, by whom, and how it went. */
export interface IngestJob {
  id: string
  kind: 'dataset' | 'grid'
  /** The dataset or grid id. */
  target: string
  mode: 'replace' | 'merge'
  format: string
  status: IngestJobStatus
  bytes: number
  /** SHA-256 (hex) of the body: a repeated Idempotency-Key must come with the same body. */
  bodySha256: string
  idempotencyKey: string | null
  /** The member or machine client that sent it (idempotency keys are per sender). */
  requestedBy: string
  /** Features (or bands) done so far. */
  progress: number
  /** The importer's summary (kept, rejected, …) once the job has ended. */
  summary: Record<string, unknown> | null
  error: string | null
  createdAt: number
  startedAt: number | null
  finishedAt: number | null
  /** Renewed while the job runs; a queued or running job whose heartbeat stops was orphaned. */
  heartbeatAt: number
}

/** What a running job changes in its row. */
export interface IngestJobChange {
  status?: IngestJobStatus
  progress?: number
  summary?: Record<string, unknown> | null
  error?: string | null
  startedAt?: number
  finishedAt?: number
  heartbeatAt: number
}

/** Ingestion jobs in the feature store (table ingest_jobs), readable by every server on it. */
export interface IngestJobStore {
  /**
   * Inserts a job, unless its sender already has a job under its idempotency key: then nothing is
   * inserted and that first job is answered (`created: false`).
   */
  create(job: IngestJob): Awaitable<{ job: IngestJob; created: boolean }>
  get(id: string): Awaitable<IngestJob | null>
  update(id: string, change: IngestJobChange): Awaitable<void>
  /**
   * Marks failed (with `error`) every queued or running job whose heartbeat is older than
   * `before` — their server stopped; answers how many.
   */
  failStale(before: number, error: string, now: number): Awaitable<number>
}

/** A row of ingest_jobs as both drivers return it (PostgreSQL bigints arrive as strings). */
export interface IngestJobRow {
  id: string
  kind: string
  target: string
  mode: string
  format: string
  status: string
  bytes: number | string
  body_sha256: string
  idempotency_key: string | null
  requested_by: string
  progress: number | string
  summary: string | null
  error: string | null
  created_at: number | string
  started_at: number | string | null
  finished_at: number | string | null
  heartbeat_at: number | string
}

const time = (v: number | string | null): number | null => (v === null ? null : Number(v))

/** The job a row holds (one mapper for both stores). */
export function ingestJobOf(r: IngestJobRow): IngestJob {
  return {
    id: r.id,
    kind: r.kind === 'grid' ? 'grid' : 'dataset',
    target: r.target,
    mode: r.mode === 'merge' ? 'merge' : 'replace',
    format: r.format,
    status: r.status as IngestJobStatus,
    bytes: Number(r.bytes),
    bodySha256: r.body_sha256,
    idempotencyKey: r.idempotency_key,
    requestedBy: r.requested_by,
    progress: Number(r.progress),
    summary: r.summary === null ? null : (JSON.parse(r.summary) as Record<string, unknown>),
    error: r.error,
    createdAt: Number(r.created_at),
    startedAt: time(r.started_at),
    finishedAt: time(r.finished_at),
    heartbeatAt: Number(r.heartbeat_at),
  }
}

/** The statements of both stores, in `?` placeholders (PostgreSQL's store numbers them). */
export const INGEST_JOB_SQL = {
  insert: `INSERT INTO ingest_jobs (id, kind, target, mode, format, status, bytes, body_sha256,
    idempotency_key, requested_by, progress, summary, error, created_at, started_at, finished_at, heartbeat_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
  get: 'SELECT * FROM ingest_jobs WHERE id = ?',
  byKey: 'SELECT * FROM ingest_jobs WHERE requested_by = ? AND idempotency_key = ?',
  update: `UPDATE ingest_jobs SET status = COALESCE(?, status), progress = COALESCE(?, progress),
    summary = COALESCE(?, summary), error = COALESCE(?, error), started_at = COALESCE(?, started_at),
    finished_at = COALESCE(?, finished_at), heartbeat_at = ? WHERE id = ?`,
  failStale: `UPDATE ingest_jobs SET status = 'failed', error = ?, finished_at = ?
    WHERE status IN ('queued', 'running') AND heartbeat_at < ?`,
} as const

export function ingestJobParams(j: IngestJob): unknown[] {
  return [
    j.id,
    j.kind,
    j.target,
    j.mode,
    j.format,
    j.status,
    j.bytes,
    j.bodySha256,
    j.idempotencyKey,
    j.requestedBy,
    j.progress,
    j.summary === null ? null : JSON.stringify(j.summary),
    j.error,
    j.createdAt,
    j.startedAt,
    j.finishedAt,
    j.heartbeatAt,
  ]
}

export function ingestChangeParams(id: string, c: IngestJobChange): unknown[] {
  return [
    c.status ?? null,
    c.progress ?? null,
    c.summary === undefined || c.summary === null ? null : JSON.stringify(c.summary),
    c.error ?? null,
    c.startedAt ?? null,
    c.finishedAt ?? null,
    c.heartbeatAt,
    id,
  ]
}

export function createIngestJobStore(db: Database.Database): IngestJobStore {
  const insert = db.prepare(INGEST_JOB_SQL.insert)
  const get = db.prepare<[string], IngestJobRow>(INGEST_JOB_SQL.get)
  const byKey = db.prepare<[string, string], IngestJobRow>(INGEST_JOB_SQL.byKey)
  const update = db.prepare(INGEST_JOB_SQL.update)
  const failStale = db.prepare(INGEST_JOB_SQL.failStale)
  return {
    create(job) {
      if (insert.run(...ingestJobParams(job)).changes > 0) return { job, created: true }
      const first = job.idempotencyKey === null ? undefined : byKey.get(job.requestedBy, job.idempotencyKey)
      if (!first) throw new Error(`ingest job ${job.id} was not stored`)
      return { job: ingestJobOf(first), created: false }
    },
    get(id) {
      const row = get.get(id)
      return row ? ingestJobOf(row) : null
    },
    update(id, change) {
      update.run(...ingestChangeParams(id, change))
    },
    failStale(before, error, now) {
      return failStale.run(error, now, before).changes
    },
  }
}
