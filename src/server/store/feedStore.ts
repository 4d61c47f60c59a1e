import type Database from 'better-sqlite3'
import type { FeedRow } from '../feeds/feedRow'
import type { RunSummary } from '../feeds/feedTypes'
import type { Awaitable } from './Awaitable'
import { sqliteCodec, updateWhere } from './rows/codec'

/** What a successful feed run records beside its rows: where from, when, its summary and validators. */
export interface SuccessfulFeedRun {
  source: string
  at: string
  summary: RunSummary
  etag: string | null
  lastModified: string | null
}

/** Live feeds' records and freshness (migration 100). */
export interface FeedStorage {
  /** The feed's current records (empty before its first successful run). */
  rows(feed: string, fields: readonly string[]): Awaitable<FeedRow[]>
  status(feed: string): Awaitable<FeedStatus | null>
  allStatus(): Awaitable<FeedStatus[]>
  /** A successful run: the feed's records replaced, freshness and validators updated (one transaction). */
  saveRun(
    feed: string,
    dataset: string,
    rows: readonly FeedRow[],
    fields: readonly string[],
    run: SuccessfulFeedRun,
  ): Awaitable<void>
  /** A run that changed nothing (304 Not Modified): it still counts as a successful check. */
  saveNotModified(feed: string, dataset: string, at: string): Awaitable<void>
  /** A failed run: the error is recorded, the data and the validators stay as they were. */
  saveFailure(
    feed: string,
    dataset: string,
    source: string,
    at: string,
    error: string,
    summary: RunSummary | null,
  ): Awaitable<void>
}

/** A feed's freshness as GET /api/feeds reports it. */
export interface FeedStatus {
  feed: string
  dataset: string
  /** Where the last run read from (URL without query string, or file). */
  source: string | null
  lastAttemptAt: string | null
  lastSuccessAt: string | null
  /** Newest `time` value in the feed's data. */
  newestDataAt: string | null
  /** Error of the last run; null once a run succeeds. */
  lastError: string | null
  lastErrorAt: string | null
  /** Failed runs since the last success. */
  failures: number
  summary: RunSummary | null
  etag: string | null
  lastModified: string | null
}

/** A `feed_status` row (both stores). */
export interface StatusRow {
  feed: string
  dataset: string
  source: string | null
  last_attempt_at: string | null
  last_success_at: string | null
  newest_data_at: string | null
  last_error: string | null
  last_error_at: string | null
  failures: number
  summary: string | null
  etag: string | null
  last_modified: string | null
}

export function toStatus(r: StatusRow): FeedStatus {
  let summary: RunSummary | null = null
  try {
    summary = r.summary ? (JSON.parse(r.summary) as RunSummary) : null
  } catch {
    summary = null
  }
  return {
    feed: r.feed,
    dataset: r.dataset,
    source: r.source,
    lastAttemptAt: r.last_attempt_at,
    lastSuccessAt: r.last_success_at,
    newestDataAt: r.newest_data_at,
    lastError: r.last_error,
    lastErrorAt: r.last_error_at,
    failures: r.failures,
    summary,
    etag: r.etag,
    lastModified: r.last_modified,
  }
}

/** What a successful run sets in feed_status (both stores): the error and failure count cleared. */
export const FEED_SUCCESS_COLUMNS = [
  'dataset',
  'source',
  'last_attempt_at',
  'last_success_at',
  'newest_data_at',
  'last_error',
  'last_error_at',
  'failures',
  'summary',
  'etag',
  'last_modified',
] as const

export const feedSuccessParams = (dataset: string, run: SuccessfulFeedRun): unknown[] => [
  dataset,
  run.source,
  run.at,
  run.at,
  run.summary.newest,
  null,
  null,
  0,
  JSON.stringify(run.summary),
  run.etag,
  run.lastModified,
]

/**
 * A feed's records as stored (both stores): one JSON list of [key, time, approximate, geometry
 * (a point as [lon, lat]), ...values in `fields` order].
 */
export function encodeFeedRows(rows: readonly FeedRow[], fields: readonly string[]): string {
  return JSON.stringify(
    rows.map((r) => [
      r.key,
      r.time,
      r.approximate ? 1 : 0,
      r.geometry?.type === 'Point' ? r.geometry.coordinates : r.geometry,
      ...fields.map((f) => r.props[f] ?? null),
    ]),
  )
}

/** The records written by encodeFeedRows. */
export function decodeFeedRows(text: string, fields: readonly string[]): FeedRow[] {
  return (JSON.parse(text) as unknown[][]).map((r) => {
    const props: FeedRow['props'] = {}
    fields.forEach((f, i) => (props[f] = (r[i + 4] ?? null) as string | number | null))
    return {
      key: r[0] as string,
      time: r[1] as string | null,
      approximate: r[2] === 1,
      geometry: Array.isArray(r[3])
        ? { type: 'Point', coordinates: r[3] as number[] }
        : (r[3] as FeedRow['geometry']),
      props,
    }
  })
}

/** Feed records and freshness in the feature store (migration 100_feeds.sql). */
export class FeedStore implements FeedStorage {
  constructor(private readonly db: Database.Database) {}

  /** The feed's current records (empty before its first successful run). */
  rows(feed: string, fields: readonly string[]): FeedRow[] {
    const text: unknown = this.db.prepare('SELECT rows FROM feed_records WHERE feed = ?').pluck().get(feed)
    return typeof text === 'string' ? decodeFeedRows(text, fields) : []
  }

  status(feed: string): FeedStatus | null {
    const r = this.db.prepare('SELECT * FROM feed_status WHERE feed = ?').get(feed) as StatusRow | undefined
    return r ? toStatus(r) : null
  }

  allStatus(): FeedStatus[] {
    return (this.db.prepare('SELECT * FROM feed_status ORDER BY feed').all() as StatusRow[]).map(toStatus)
  }

  private ensure(feed: string, dataset: string): void {
    this.db.prepare('INSERT OR IGNORE INTO feed_status (feed, dataset) VALUES (?, ?)').run(feed, dataset)
  }

  /** A successful run: the feed's records replaced, freshness and validators updated (one transaction). */
  saveRun(
    feed: string,
    dataset: string,
    rows: readonly FeedRow[],
    fields: readonly string[],
    run: SuccessfulFeedRun,
  ): void {
    this.db.transaction(() => {
      this.ensure(feed, dataset)
      this.db
        .prepare('INSERT OR REPLACE INTO feed_records (feed, row_count, rows) VALUES (?, ?, ?)')
        .run(feed, rows.length, encodeFeedRows(rows, fields))
      this.db
        .prepare(updateWhere(sqliteCodec, 'feed_status', FEED_SUCCESS_COLUMNS, 'feed'))
        .run(...feedSuccessParams(dataset, run), feed)
    })()
  }

  /** A run that changed nothing (304 Not Modified): it still counts as a successful check. */
  saveNotModified(feed: string, dataset: string, at: string): void {
    this.ensure(feed, dataset)
    this.db
      .prepare(
        'UPDATE feed_status SET last_attempt_at = ?, last_success_at = ?, last_error = NULL, last_error_at = NULL, failures = 0 WHERE feed = ?',
      )
      .run(at, at, feed)
  }

  /** A failed run: the error is recorded, the data and the validators stay as they were. */
  saveFailure(
    feed: string,
    dataset: string,
    source: string,
    at: string,
    error: string,
    summary: RunSummary | null,
  ): void {
    this.ensure(feed, dataset)
    this.db
      .prepare(
        `UPDATE feed_status SET source = ?, last_attempt_at = ?, last_error = ?, last_error_at = ?, failures = failures + 1,
         summary = coalesce(?, summary) WHERE feed = ?`,
      )
      .run(source, at, error.slice(0, 1000), at, summary ? JSON.stringify(summary) : null, feed)
  }
}
