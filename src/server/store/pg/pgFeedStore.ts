import type { FeedStorage, SuccessfulFeedRun } from '../AppStore'
import type { FeedRow } from '../../feeds/feedRow'
import type { RunSummary } from '../../feeds/feedTypes'
import {
  decodeFeedRows,
  encodeFeedRows,
  FEED_SUCCESS_COLUMNS,
  feedSuccessParams,
  toStatus,
  type FeedStatus,
  type StatusRow,
} from '../feedStore'
import { pgCodec, updateWhere } from '../rows/codec'
import type { PgDatabase } from './pgDatabase'

/** Feed records and freshness in PostgreSQL (migration data/003): the SQLite FeedStore's answers. */
export class PgFeedStore implements FeedStorage {
  constructor(private readonly db: PgDatabase) {}

  /** The feed's current records (empty before its first successful run). */
  async rows(feed: string, fields: readonly string[]): Promise<FeedRow[]> {
    const row = await this.db.one<{ rows: string }>('SELECT rows FROM feed_records WHERE feed = $1', [feed])
    return row ? decodeFeedRows(row.rows, fields) : []
  }

  async status(feed: string): Promise<FeedStatus | null> {
    const r = await this.db.one<StatusRow>('SELECT * FROM feed_status WHERE feed = $1', [feed])
    return r ? toStatus(r) : null
  }

  async allStatus(): Promise<FeedStatus[]> {
    return (await this.db.query<StatusRow>('SELECT * FROM feed_status ORDER BY feed COLLATE "C"')).map(
      toStatus,
    )
  }

  private async ensure(feed: string, dataset: string): Promise<void> {
    await this.db.run(
      'INSERT INTO feed_status (feed, dataset) VALUES ($1, $2) ON CONFLICT (feed) DO NOTHING',
      [feed, dataset],
    )
  }

  /** A successful run: the feed's records replaced, freshness and validators updated (one transaction). */
  async saveRun(
    feed: string,
    dataset: string,
    rows: readonly FeedRow[],
    fields: readonly string[],
    run: SuccessfulFeedRun,
  ): Promise<void> {
    await this.db.tx(async () => {
      await this.ensure(feed, dataset)
      await this.db.run(
        `INSERT INTO feed_records (feed, row_count, rows) VALUES ($1, $2, $3)
         ON CONFLICT (feed) DO UPDATE SET row_count = excluded.row_count, rows = excluded.rows`,
        [feed, rows.length, encodeFeedRows(rows, fields)],
      )
      await this.db.run(updateWhere(pgCodec, 'feed_status', FEED_SUCCESS_COLUMNS, 'feed'), [
        ...feedSuccessParams(dataset, run),
        feed,
      ])
    })
  }

  /** A run that changed nothing (304 Not Modified): it still counts as a successful check. */
  async saveNotModified(feed: string, dataset: string, at: string): Promise<void> {
    await this.ensure(feed, dataset)
    await this.db.run(
      `UPDATE feed_status SET last_attempt_at = $1, last_success_at = $1, last_error = NULL, last_error_at = NULL,
       failures = 0 WHERE feed = $2`,
      [at, feed],
    )
  }

  /** A failed run: the error is recorded, the data and the validators stay as they were. */
  async saveFailure(
    feed: string,
    dataset: string,
    source: string,
    at: string,
    error: string,
    summary: RunSummary | null,
  ): Promise<void> {
    await this.ensure(feed, dataset)
    await this.db.run(
      `UPDATE feed_status SET source = $1, last_attempt_at = $2, last_error = $3, last_error_at = $2,
       failures = failures + 1, summary = coalesce($4, summary) WHERE feed = $5`,
      [source, at, error.replace(/\0/g, '').slice(0, 1000), summary ? JSON.stringify(summary) : null, feed],
    )
  }
}
