// Worker thread of `importFeedInWorker`: parses, maps and imports one feed body through its own
// connection to the store file (staged replace, the feed's rows and freshness), off the server's
// event loop; posts the run's summary or its error.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import { SqliteStore } from '../store/sqliteStore'
import { FeedRunError, importFeed } from './importFeed'
import type { FeedImportJob, FeedImportAnswer } from './feedImportProtocol'

const job = workerData as FeedImportJob
const db = new Database(job.file, { fileMustExist: true })
let answer: FeedImportAnswer
try {
  db.pragma('busy_timeout = 5000')
  db.pragma('synchronous = NORMAL')
  const store = new SqliteStore(db, job.catalog)
  const summary = importFeed(
    { store, config: job.config, now: job.now, bbox: job.bbox },
    job.feed,
    job.text,
    job.meta,
  )
  answer = { ok: true, summary }
} catch (e) {
  answer = {
    ok: false,
    message: e instanceof Error ? e.message : String(e),
    summary: e instanceof FeedRunError ? e.summary : null,
  }
} finally {
  db.close()
}
parentPort?.postMessage(answer)
