import type { Awaitable } from './Awaitable'
import type { Catalog, DatasetDef } from './catalog'
import type { ColumnFilter, SortKey } from './columnIndex'
import type { LargestRows, MercatorBox, TileRows } from './tileRows'
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

/** A tile's aggregate cells with the dataset version they were read from (one snapshot). */
export interface TileCells {
  version: number
  cells: AggregateCell[]
}

export interface SeriesPoint {
  t: string
  value: number
}

/**
 * What the HTTP layer needs from a feature store. The embedded implementation is SQLite
 * (sqliteStore.ts), which answers synchronously; the PostgreSQL store (store/pg/) answers with
 * promises. Callers always `await` a method's answer (`Awaitable<T>`), never rely on either.
 */
export interface Store {
  readonly catalog: Catalog
  dataset(id: string): DatasetDef | undefined
  /** A dataset's version, count and bbox: on every tile request's path, so cheap (cached) in both stores. */
  info(id: string): Awaitable<DatasetInfo>
  /**
   * Replaces a dataset's features (all or nothing) and bumps its version; answers the count.
   * The input is synchronous (files are parsed by sync generators: readFeatures): the SQLite
   * store writes it in one transaction that cannot span an await.
   */
  replaceDataset(id: string, features: Iterable<FeatureInput>, onProgress?: ProgressFn): Awaitable<number>
  /** A page of records matching every filter, in `sort` order (ties and default: id), and the total. */
  records(
    id: string,
    filters: readonly ColumnFilter[],
    limit: number,
    offset: number,
    sort?: SortKey,
  ): Awaitable<RecordsPage>
  /**
   * Features whose bbox meets `box` and whose size ≥ minSize; the `limit` largest when more match;
   * with the dataset version they were read from (one snapshot: a tile is keyed by it).
   */
  featuresInBox(
    id: string,
    box: readonly [number, number, number, number],
    minSize: number,
    limit: number,
  ): Awaitable<{ features: StoredFeature[]; matched: number; version: number }>
  /**
   * Every row of a dataset for the in-memory tile index (src/server/tiles/tileData.ts); with `box`
   * (lon/lat), only the rows whose stored bbox meets it (a block of the shared archive's render;
   * `count` is then the rows in the box).
   */
  tileRows(id: string, box?: readonly [number, number, number, number]): Awaitable<TileRows>
  /** How many features' stored bboxes meet `box` (lon/lat), counted up to `max` (at most max). */
  countInBox(id: string, box: readonly [number, number, number, number], max: number): Awaitable<number>
  /**
   * The rows (as `tileRows`, in id order) of the `limit` largest features whose Mercator box meets
   * `box` and whose size ≥ `minSize` (size descending, ties by id; a stored size 0 counts as 1), how
   * many match (up to `limit + 1`) and whether a smaller one meets the box: exactly the features the
   * tile data's `TileIndex.pick` keeps for that box, read without the whole dataset (a tile of the
   * shared archive's render too dense for a block; src/server/tiles/renderArchive.ts).
   */
  largestInBox(id: string, box: MercatorBox, minSize: number, limit: number): Awaitable<LargestRows>
  /**
   * A file a worker thread can open read-only to build tile indexes, exports and feed imports
   * off the event loop. null when there is none (an in-memory SQLite store, PostgreSQL): every
   * such path then reads through this interface in-process, except exports, whose workers open a
   * PostgreSQL connection of their own (featureSourceOf in openStoreFile.ts).
   */
  readonly location: string | null
  /** Every feature of a dataset in id order (for whole-dataset analyses such as the alert rules). */
  allFeatures(id: string): Awaitable<StoredFeature[]>
  /** The aggregate cells of tile (zoom, x, y) in (cx, cy) order, with the version they belong to. */
  cells(id: string, zoom: number, x: number, y: number): Awaitable<TileCells>
  series(name: string): Awaitable<SeriesPoint[]>
  replaceSeries(name: string, points: readonly SeriesPoint[]): Awaitable<void>
  getMeta(key: string): Awaitable<string | undefined>
  setMeta(key: string, value: string): Awaitable<void>
  close(): Awaitable<void>
}
