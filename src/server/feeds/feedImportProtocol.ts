import type { FeedDefinition, FeedsConfig } from '../../shared/config'
import type { Catalog } from '../store/catalog'
import type { RunSummary } from './feedTypes'

/** What the feed import worker gets: the store file, the run's settings and the downloaded body. */
export interface FeedImportJob {
  /** Matches the answer to its job. */
  id: number
  file: string
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
  | { id: number; ok: false; message: string; summary: RunSummary | null }
