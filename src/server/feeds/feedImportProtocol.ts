import type { FeedDefinition, FeedsConfig } from '../../shared/config'
import type { Catalog } from '../store/catalog'
import type { RunSummary } from './feedTypes'
import type { MappedFeed } from './importFeed'

/**
 * What the feed import worker gets: the store file, the run's settings and the downloaded body.
 * Without a file (a store the worker cannot open: PostgreSQL) it only parses and maps the body
 * and answers the rows; the server writes them through its store.
 */
export interface FeedImportJob {
  /** Matches the answer to its job. */
  id: number
  file: string | null
  catalog: Catalog
  config: FeedsConfig
  feed: FeedDefinition
  now: number
  bbox?: readonly number[]
  text: string
  meta: { source: string; etag: string | null; lastModified: string | null }
}

/** The answer to one job. */
export type FeedImportAnswer =
  | { id: number; ok: true; summary: RunSummary }
  | { id: number; ok: true; mapped: MappedFeed }
  | { id: number; ok: false; message: string; summary: RunSummary | null }
