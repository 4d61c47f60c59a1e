import type { Geometry } from 'geojson'

/** One record of a feed as its parser read it: flat or nested properties, geometry when it has one. */
export interface FeedRecord {
  /** Line (CSV formats) or feature/station number (1-based), named in rejection reasons. */
  n: number
  props: Record<string, unknown>
  geometry: Geometry | null
  /** Units the feed declares for some fields (Synoptic UNITS block, MesoWest units row). */
  units?: Record<string, string>
  /** CSV: the row's cells, read by column index (ParsedFeed.columns) instead of building `props`. */
  values?: readonly string[]
}

/** What a parser read from one body. */
export interface ParsedFeed {
  records: FeedRecord[]
  /** 'line' for CSV formats, 'feature' otherwise (how `n` is named). */
  unit: 'line' | 'feature' | 'station'
  /** CSV: header name → cell index of `FeedRecord.values`. */
  columns?: ReadonlyMap<string, number>
}

/** A record that could not be mapped, with where it was and why. */
export interface Rejection {
  at: string
  reason: string
}

/** The outcome of one run, printed by `npm run feed` and kept for GET /api/feeds. */
export interface RunSummary {
  feed: string
  dataset: string
  /** Records the parser read. */
  read: number
  /** Records of this run kept (after filters, mapping and de-duplication). */
  kept: number
  outsideTerritory: number
  /** Records dropped by `filter.where` (other event types). */
  filteredOut: number
  /** Rows (new or stored) older than the retention window. */
  expired: number
  /** Re-delivered records that replaced one already held. */
  duplicates: number
  /** Records kept without geometry (zone-only alerts without zone polygons): not on the map. */
  withoutGeometry: number
  rejected: number
  /** The first rejections (at most 20), with their line or feature number. */
  rejections: Rejection[]
  /** Features the dataset holds after the run. */
  stored: number
  /** Newest `time` value in the data (ISO), null when the feed has no time field or no rows. */
  newest: string | null
  /** True when the source answered 304 Not Modified and nothing was imported. */
  notModified: boolean
}
