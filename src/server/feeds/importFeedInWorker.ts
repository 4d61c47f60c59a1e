import type { FeedDefinition } from '../../generated/types'
import { startWorker } from '../tiles/startWorker'
import type { FeedImportAnswer, FeedImportJob } from './feedImportProtocol'
import type { RunSummary } from './feedTypes'
import { FeedRunError, importFeed, type ImportContext } from './importFeed'

/**
 * `importFeed` in a worker thread (feedImportWorker.ts) with its own connection to the store file:
 * parsing, mapping, encoding and the staged replace run off the event loop, so sign-in and reads
 * are never held up by a large feed (the server's poller uses it). Same outcome as importFeed:
 * the summary, or a FeedRunError and nothing changed. An in-memory store imports in-thread.
 */
export async function importFeedInWorker(
  ctx: ImportContext,
  feed: FeedDefinition,
  text: string,
  meta: FeedImportJob['meta'],
): Promise<RunSummary> {
  const file = ctx.store.location
  if (file === null) return importFeed(ctx, feed, text, meta)
  const job: FeedImportJob = {
    file,
    catalog: ctx.store.catalog,
    config: ctx.config,
    feed,
    now: ctx.now,
    bbox: ctx.bbox,
    text,
    meta,
  }
  // The worker sits one folder over: startWorker resolves the module relative to src/server/tiles.
  const worker = startWorker('../feeds/feedImportWorker', job)
  try {
    const answer = await new Promise<FeedImportAnswer>((resolve, reject) => {
      worker.once('message', (m: FeedImportAnswer) => resolve(m))
      worker.once('error', reject)
      worker.once('exit', (code) =>
        reject(new Error(`feed import worker exited (${code}) without an answer`)),
      )
    })
    if (!answer.ok) throw new FeedRunError(answer.message, answer.summary)
    return answer.summary
  } finally {
    // The worker wrote through its own connection: drop this connection's cached answers.
    ctx.store.datasetReplaced(feed.dataset)
    await worker.terminate()
  }
}
