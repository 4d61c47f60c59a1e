// Worker thread of `importFeedInWorker`: parses, maps and imports feed bodies through its own
// connection to the store file (staged replace, the feed's rows and freshness), off the server's
// event loop; answers each job with the run's summary or its error. It stays up between runs
// (starting it under tsx costs more than a small feed's import).
import { parentPort } from 'node:worker_threads'
import { openStoreFile } from '../store/openStoreFile'
import { FeedRunError, importFeed, mapFeedBody } from './importFeed'
import type { FeedImportAnswer, FeedImportJob } from './feedImportProtocol'

async function run(job: FeedImportJob): Promise<FeedImportAnswer> {
  if (job.file === null) {
    try {
      return { id: job.id, ok: true, mapped: mapFeedBody(job, job.feed, job.text) }
    } catch (e) {
      return failed(job, e)
    }
  }
  const store = openStoreFile(job.file, job.catalog)
  try {
    const summary = await importFeed(
      { store, config: job.config, now: job.now, bbox: job.bbox },
      job.feed,
      job.text,
      job.meta,
    )
    return { id: job.id, ok: true, summary }
  } catch (e) {
    return failed(job, e)
  } finally {
    store.close()
  }
}

function failed(job: FeedImportJob, e: unknown): FeedImportAnswer {
  return {
    id: job.id,
    ok: false,
    message: e instanceof Error ? e.message : String(e),
    summary: e instanceof FeedRunError ? e.summary : null,
  }
}

parentPort?.on('message', (job: FeedImportJob) => {
  void run(job).then((answer) => parentPort?.postMessage(answer))
})
