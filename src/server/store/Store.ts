import type { Catalog, DatasetDef } from './catalog'
import type { ColumnFilter, SortKey } from './columnIndex'
import type { TileRows } from './tileRows'
import type { FeatureInput, ProgressFn } from './writeDataset'

export type { ColumnFilter, NumericOp, SortKey } from './columnIndex'
export type { FeatureInput, ProgressFn } from './writeDataset'

/** One row of the records API: the dataset's fields plus `id` and `bbox` [minLon, minLat, maxLon, maxLat]. */
export type RecordRow = Record<string, string | number | null | number[]>

export interface RecordsPage {
  records: RecordRow[]
  total: number
}

export interface DatasetInfo {
  version: number
  count: number
  bbox: [number, number, number, number] | null
}

/** A stored feature as the tile builder reads it: geometry blob (see geometryCodec) + attributes. */
export interface StoredFeature {
  id: number
  geom: Uint8Array
  properties: Record<string, string | number | null>
}

/** Per-cell aggregate at an aggregated zoom: global cell indices at level zoom + CELL_BITS. */
export interface AggregateCell {
  cx: number
  cy: number
  n: number
}

export interface SeriesPoint {
  t: string
  value: number
}

/**
 * What the HTTP layer needs from a feature store. The embedded implementation is SQLite
 * (sqliteStore.ts); a PostGIS store can implement the same contract.
 */
export interface Store {
  readonly catalog: Catalog
  dataset(id: string): DatasetDef | undefined
  info(id: string): DatasetInfo
  replaceDataset(id: string, features: Iterable<FeatureInput>, onProgress?: ProgressFn): number
  /** A page of records matching every filter, in `sort` order (ties and default: id), and the total. */
  records(
    id: string,
    filters: readonly ColumnFilter[],
    limit: number,
    offset: number,
    sort?: SortKey,
  ): RecordsPage
  /** Features whose bbox meets `box` and whose size ≥ minSize; the `limit` largest when more match. */
  featuresInBox(
    id: string,
    box: readonly [number, number, number, number],
    minSize: number,
    limit: number,
  ): { features: StoredFeature[]; matched: number }
  /** Every row of a dataset for the in-memory tile index (src/server/tiles/tileData.ts). */
  tileRows(id: string): TileRows
  /** A file a worker thread can open read-only to build tile indexes off the event loop (null: none). */
  readonly location: string | null
  /** Every feature of a dataset in id order (for whole-dataset analyses such as the alert rules). */
  allFeatures(id: string): StoredFeature[]
  cells(id: string, zoom: number, x: number, y: number): AggregateCell[]
  series(name: string): SeriesPoint[]
  replaceSeries(name: string, points: readonly SeriesPoint[]): void
  getMeta(key: string): string | undefined
  setMeta(key: string, value: string): void
  close(): void
}
