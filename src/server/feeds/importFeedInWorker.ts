import type { Worker } from 'node:worker_threads'
import type { FeedDefinition } from '../../shared/config'
import { startWorker } from '../tiles/startWorker'
import type { FeedImportAnswer, FeedImportJob } from './feedImportProtocol'
import type { RunSummary } from './feedTypes'
import { FeedRunError, storeMappedFeed, type ImportContext } from './importFeed'

type Pending = Map<number, (answer: FeedImportAnswer | Error) => void>

/** The feed import worker, started on first use and kept (unref'd) for the next runs. */
let current: { worker: Worker; pending: Pending } | null = null
let nextId = 1

function importWorker(): { worker: Worker; pending: Pending } {
  if (current) return current
  // The worker sits one folder over: startWorker resolves the module relative to src/server/tiles.
  const worker = startWorker('../feeds/feedImportWorker', null)
  const pending: Pending = new Map()
  const own = { worker, pending }
  const fail = (error: Error) => {
    if (current === own) current = null
    for (const settle of pending.values()) settle(error)
    pending.clear()
  }
  worker.on('message', (answer: FeedImportAnswer) => {
    const settle = pending.get(answer.id)
    pending.delete(answer.id)
    settle?.(answer)
    if (pending.size === 0) worker.unref()
  })
  worker.on('error', fail)
  worker.on('exit', (code) => fail(new Error(`feed import worker exited (${code})`)))
  worker.unref()
  current = own
  return own
}

/**
 * `importFeed` in a worker thread (feedImportWorker.ts) with its own connection to the store file:
 * parsing, mapping, encoding and the staged replace run off the event loop, so sign-in and reads
 * are never held up by a large feed (the server's poller uses it). Same outcome as importFeed:
 * the summary, or a FeedRunError and nothing changed. A store without a file (PostgreSQL,
 * in-memory) has the worker parse and map the body only, and writes the rows through the store.
 */
export async function importFeedInWorker(
  ctx: ImportContext,
  feed: FeedDefinition,
  text: string,
  meta: FeedImportJob['meta'],
): Promise<RunSummary> {
  const file = ctx.store.location
  const job: FeedImportJob = {
    id: nextId++,
    file,
    catalog: ctx.store.catalog,
    config: ctx.config,
    feed,
    now: ctx.now,
    bbox: ctx.bbox,
    text,
    meta,
  }
  const { worker, pending } = importWorker()
  try {
    const answer = await new Promise<FeedImportAnswer | Error>((resolve) => {
      pending.set(job.id, resolve)
      worker.ref() // a run in progress keeps the process up
      worker.postMessage(job)
    })
    if (answer instanceof Error) throw new FeedRunError(answer.message, null)
    if (!answer.ok) throw new FeedRunError(answer.message, answer.summary)
    // No store file: the worker mapped the body; this process writes it through the store.
    if ('mapped' in answer) return await storeMappedFeed(ctx, feed, answer.mapped, meta)
    return answer.summary
  } finally {
    // The worker wrote through its own connection: drop this connection's cached answers.
    if (file !== null) await ctx.store.datasetReplaced(feed.dataset)
  }
}
