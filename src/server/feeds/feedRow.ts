import type { Geometry } from 'geojson'

/** One record of a feed as stored for the next run (feed_records) and written to its dataset. */
export interface FeedRow {
  /** Identity within the feed (key fields, see feedKey). */
  key: string
  /** The record's `time` field (ISO) when the feed declares one. */
  time: string | null
  props: Record<string, string | number | null>
  /** Null for a record kept without geometry (zone-only alert with no zone polygon). */
  geometry: Geometry | null
  /** True when the geometry stands in for a missing one (a point drawn as a small circle). */
  approximate: boolean
}
