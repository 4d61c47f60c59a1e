import fs from 'node:fs'
import type { FeedDefinition } from '../../shared/config'
import { downloadFeed } from './downloadFeed'
import { fillPlaceholders, filterBox } from './feedSource'
import type { RunSummary } from './feedTypes'
import { FeedRunError, importFeed, type ImportContext } from './importFeed'
import type { importFeedInWorker } from './importFeedInWorker'

export interface RunOptions {
  /** Read this file instead of the configured source (`--file`). */
  file?: string
  /** Read this URL instead of the configured source (`--url`). */
  url?: string
  env?: NodeJS.ProcessEnv
  /** Send the validators of the last good download (the poller does; a manual run does not). */
  conditional?: boolean
  sleep?: (ms: number) => Promise<void>
  /** How the body is imported: in this thread (default: the CLI) or in a worker (the server's poller). */
  importer?: typeof importFeed | typeof importFeedInWorker
}

export type RunResult =
  | { ok: true; changed: boolean; summary: RunSummary }
  | { ok: false; error: string; summary: RunSummary | null }

const DEFAULTS = { timeoutSeconds: 30, maxBytes: 50_000_000, retries: 2, backoffSeconds: 5 }

/**
 * Runs one feed once: reads its source (a file, or a URL with timeout, size limit, retries and,
 * when asked, conditional GET), imports it (see importFeed) and records the outcome in the feed's
 * freshness. Never throws for feed content or network trouble: a failure is reported and recorded
 * and the stored data stays as it was.
 */
export async function runFeed(
  ctx: ImportContext,
  feed: FeedDefinition,
  opts: RunOptions = {},
): Promise<RunResult> {
  const feeds = ctx.store.feeds
  const at = new Date(ctx.now).toISOString()
  const d = { ...DEFAULTS, ...ctx.config.defaults }
  const file = opts.file ?? (opts.url ? undefined : feed.source.file)
  const template = opts.url ?? feed.source.url ?? ''
  // Recorded and shown by GET /api/feeds: the configured template (placeholders, never their values),
  // or only the origin of a --url given by hand (its path or query may hold a key).
  const source = file ?? (opts.url ? `${originOf(opts.url)} (--url)` : template)
  try {
    let text: string
    let validators: { etag: string | null; lastModified: string | null } = { etag: null, lastModified: null }
    if (file !== undefined) {
      const size = fs.statSync(file).size
      const max = feed.maxBytes ?? d.maxBytes
      if (size > max) throw new Error(`${file} has ${size} bytes, over the limit of ${max}`)
      text = fs.readFileSync(file, 'utf8')
    } else {
      const env = opts.env ?? process.env
      const box = filterBox(ctx.config, feed, ctx.bbox) ?? ctx.config.territory.bbox
      const url = fillPlaceholders(template, env, box, ctx.now)
      const headers: Record<string, string> = { 'User-Agent': d.userAgent ?? 'Emberline', Accept: '*/*' }
      for (const [k, v] of Object.entries(feed.source.headers ?? {}))
        headers[k] = fillPlaceholders(v, env, box, ctx.now, false)
      const last = opts.conditional ? await feeds.status(feed.id) : null
      const got = await downloadFeed(url, {
        timeoutMs: (feed.timeoutSeconds ?? d.timeoutSeconds) * 1000,
        maxBytes: feed.maxBytes ?? d.maxBytes,
        headers,
        etag: last?.etag,
        lastModified: last?.lastModified,
        retries: d.retries,
        backoffMs: d.backoffSeconds * 1000,
        sleep: opts.sleep,
      })
      if (got.status === 'not-modified') {
        await feeds.saveNotModified(feed.id, feed.dataset, at)
        const summary = { ...(last?.summary ?? emptySummary(feed)), notModified: true }
        return { ok: true, changed: false, summary }
      }
      text = got.text
      validators = { etag: got.etag, lastModified: got.lastModified }
    }
    const summary = await (opts.importer ?? importFeed)(ctx, feed, text, { source, ...validators })
    return { ok: true, changed: true, summary }
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e)
    const summary = e instanceof FeedRunError ? e.summary : null
    await feeds.saveFailure(feed.id, feed.dataset, source, at, error, summary)
    return { ok: false, error, summary }
  }
}

function emptySummary(feed: FeedDefinition): RunSummary {
  return {
    feed: feed.id,
    dataset: feed.dataset,
    read: 0,
    kept: 0,
    outsideTerritory: 0,
    filteredOut: 0,
    expired: 0,
    duplicates: 0,
    withoutGeometry: 0,
    rejected: 0,
    rejections: [],
    stored: 0,
    newest: null,
    notModified: true,
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return 'a URL'
  }
}
