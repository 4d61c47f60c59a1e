import {
  INGEST_JOB_SQL,
  ingestChangeParams,
  ingestJobOf,
  ingestJobParams,
  type IngestJobRow,
  type IngestJobStore,
} from '../ingestJobStore'
import type { PgDatabase } from './pgDatabase'

/** `?` placeholders as PostgreSQL's `$1, $2, …`. */
const numbered = (sql: string): string => {
  let n = 0
  return sql.replace(/\?/g, () => `$${++n}`)
}

const SQL = Object.fromEntries(Object.entries(INGEST_JOB_SQL).map(([k, v]) => [k, numbered(v)])) as Record<
  keyof typeof INGEST_JOB_SQL,
  string
>

/** Ingestion jobs in PostgreSQL: the SQLite store's statements and row mapper. */
export function createPgIngestJobStore(db: PgDatabase): IngestJobStore {
  return {
    async create(job) {
      if ((await db.run(SQL.insert, ingestJobParams(job))) > 0) return { job, created: true }
      const first =
        job.idempotencyKey === null
          ? undefined
          : await db.one<IngestJobRow>(SQL.byKey, [job.requestedBy, job.idempotencyKey])
      if (!first) throw new Error(`ingest job ${job.id} was not stored`)
      return { job: ingestJobOf(first), created: false }
    },
    async get(id) {
      const row = await db.one<IngestJobRow>(SQL.get, [id])
      return row ? ingestJobOf(row) : null
    },
    async update(id, change) {
      await db.run(SQL.update, ingestChangeParams(id, change))
    },
    async failStale(before, error, now) {
      return db.run(SQL.failStale, [error, now, before])
    },
  }
}
