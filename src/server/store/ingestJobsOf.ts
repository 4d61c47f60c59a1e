import type { AppStore } from './AppStore'
import { createIngestJobStore, type IngestJobStore } from './ingestJobStore'
import { createPgIngestJobStore } from './pg/pgIngestJobStore'
import { PgStore } from './pg/pgStore'
import { SqliteStore } from './sqliteStore'

const made = new WeakMap<AppStore, IngestJobStore>()

/**
 * The ingestion jobs of a store (table ingest_jobs of its feature database), made once per store:
 * SQLite's emberline.sqlite or the shared PostgreSQL database, so a job is read by every server on it.
 */
export function ingestJobsOf(store: AppStore): IngestJobStore {
  let jobs = made.get(store)
  if (!jobs) {
    if (store instanceof PgStore) jobs = createPgIngestJobStore(store.db)
    else if (store instanceof SqliteStore) jobs = createIngestJobStore(store.db)
    else throw new Error('ingestion jobs need a SQLite or PostgreSQL store')
    made.set(store, jobs)
  }
  return jobs
}
