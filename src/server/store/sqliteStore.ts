import { AsyncLocalStorage } from 'node:async_hooks'
import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import type { Catalog, DatasetDef } from './catalog'
import { catalogDataset, filterableFields, mustDataset } from './catalog'
import type { ColumnFilter, ColumnIndex, SortKey } from './columnIndex'
import { DatasetRecords } from './datasetRecords'
import { ensureDatasetTables, fieldColumn, tableNames } from './datasetTables'
import { migrate } from './migrate'
import { forgetAccountsMigrations, openAccountsDb } from './accountsDb'
import { largestInBox, tileRows, type LargestRows, type MercatorBox, type TileRows } from './tileRows'
import { aggregateZooms } from '../tiles/tilePolicy'
import type { AggregateCell, DatasetInfo, RecordsPage, SeriesPoint, StoredFeature, TileCells } from './Store'
import type { AppStore } from './AppStore'
import { largest, storedFeature } from './storedFeature'
import { createAlertSubscriptionStore } from './alertSubscriptionStore'
import { createAlertsStore } from './alertsStore'
import { datasetFreshness, type DatasetFreshness } from './datasetFreshness'
import { createDeliveryStore } from './deliveryStore'
import { FeedStore } from './feedStore'
import { FireRunStore } from './fireRunStore'
import { GridStore } from './gridStore'
import { createIdentityStore } from './identityStore'
import { createIdentityTokenStore } from './identityTokenStore'
import { createMachineClientStore } from './machineClientStore'
import { OgcFeatureReader } from './ogcFeatures'
import { createPreferencesStore } from './preferencesStore'
import { createPspsEventStore } from './pspsEventStore'
import { CELL_BITS, rebuildCells, replaceDataset, type FeatureInput, type ProgressFn } from './writeDataset'
import { dropStaleStaging } from './staleStaging'

export const STORE_FILE = 'emberline.sqlite'

/** How long a dataset's info is trusted before the store is asked again (other processes' imports). */
const INFO_TTL_MS = 250

/**
 * The embedded store: one SQLite file (WAL) under the data directory for features, series, grids
 * and feeds, and the accounts database beside it. Builds every area's store (AppStore) over its
 * two handles, once, on first use.
 */
export class SqliteStore implements AppStore {
  private recordsReader: DatasetRecords | null = null
  private infoStatement: Database.Statement | null = null
  /** info() answers, each kept INFO_TTL_MS: every tile request asks for its dataset's version. */
  private readonly infoCache = new Map<string, { at: number; info: DatasetInfo }>()
  /** Marks the async context of this store's open transaction (see transaction()). */
  private readonly txScope = new AsyncLocalStorage<SqliteStore>()

  constructor(
    /** The SQLite handle, for other areas' query modules under src/server/store/. */
    readonly db: Database.Database,
    readonly catalog: Catalog,
    /** The accounts database (identity, audit, preferences, acks); null in read-only workers. */
    private readonly accountsHandle: Database.Database | null = null,
  ) {}

  /** The accounts database beside the feature store (see accountsDb.ts). */
  get accounts(): Database.Database {
    if (!this.accountsHandle) throw new Error('this store was opened without its accounts database')
    return this.accountsHandle
  }

  private readonly areas = new Map<string, unknown>()
  private area<T>(name: string, make: () => T): T {
    if (!this.areas.has(name)) this.areas.set(name, make())
    return this.areas.get(name) as T
  }
  get grids() {
    return this.area('grids', () => new GridStore(this.db))
  }
  get feeds() {
    return this.area('feeds', () => new FeedStore(this.db))
  }
  get ogc() {
    return this.area('ogc', () => new OgcFeatureReader(this.db))
  }
  get fireRuns() {
    return this.area('fireRuns', () => new FireRunStore(this.db))
  }
  get members() {
    return this.area('members', () => createIdentityStore(this.accounts))
  }
  get tokens() {
    return this.area('tokens', () => createIdentityTokenStore(this.accounts))
  }
  get machines() {
    return this.area('machines', () => createMachineClientStore(this.accounts))
  }
  get acks() {
    return this.area('acks', () => createAlertsStore(this.accounts))
  }
  get preferences() {
    return this.area('preferences', () => createPreferencesStore(this.accounts))
  }
  get subscriptions() {
    return this.area('subscriptions', () => createAlertSubscriptionStore(this.accounts))
  }
  get delivery() {
    return this.area('delivery', () => createDeliveryStore(this.accounts))
  }
  get pspsEvents() {
    return this.area('pspsEvents', () => createPspsEventStore(this.accounts))
  }

  freshness(def: DatasetDef): DatasetFreshness {
    return datasetFreshness(this.db, def)
  }

  /**
   * One write transaction around `fn` (see FeatureStore.transaction). better-sqlite3 cannot run an
   * async function in `db.transaction()`, so this begins and ends it itself: the store's own
   * nested `db.transaction()` calls become savepoints inside it. A call from inside `fn` joins
   * it; a transaction begun by any other code while it is open is refused rather than merged.
   */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    if (this.txScope.getStore() === this) return fn()
    if (this.db.inTransaction) throw new Error('the feature store is inside another transaction')
    this.db.exec('BEGIN')
    try {
      const out = await this.txScope.run(this, fn)
      this.db.exec('COMMIT')
      return out
    } catch (err) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK')
      // What was read inside the transaction (infos, records indexes) may describe rolled-back rows.
      for (const d of this.catalog.datasets) this.datasetReplaced(d.id)
      throw err
    }
  }

  dataset(id: string): DatasetDef | undefined {
    return catalogDataset(this.catalog, id)
  }

  /** Zooms whose aggregate cells are kept for a dataset (see tiles/tilePolicy). */
  aggregateZooms(id: string): number[] {
    return aggregateZooms(this.catalog.sources, mustDataset(this.catalog, id))
  }

  /**
   * A dataset's version, feature count and bbox. Writes through this store are seen at once;
   * an import by another process (the import CLI) within INFO_TTL_MS.
   */
  info(id: string): DatasetInfo {
    const now = performance.now()
    const cached = this.infoCache.get(id)
    if (cached && now - cached.at < INFO_TTL_MS) return cached.info
    const info = this.readInfo(id)
    this.infoCache.set(id, { at: now, info })
    return info
  }

  private readInfo(id: string): DatasetInfo {
    this.infoStatement ??= this.db
      .prepare('SELECT version, feature_count, minx, miny, maxx, maxy FROM datasets WHERE id = ?')
      .raw()
    const row = this.infoStatement.get(id) as
      [number, number, number | null, number | null, number | null, number | null] | undefined
    if (!row) return { version: 0, count: 0, bbox: null }
    const [version, count, minx, miny, maxx, maxy] = row
    const bbox =
      minx === null || miny === null || maxx === null || maxy === null
        ? null
        : ([minx, miny, maxx, maxy] as const)
    return { version, count, bbox: bbox ? [...bbox] : null }
  }

  /** True when no dataset holds a feature (a fresh store: first start seeds it). */
  isEmpty(): boolean {
    return Number(this.db.prepare('SELECT coalesce(sum(feature_count), 0) FROM datasets').pluck().get()) === 0
  }

  replaceDataset(id: string, features: Iterable<FeatureInput>, onProgress?: ProgressFn): number {
    const n = replaceDataset(this.db, mustDataset(this.catalog, id), features, {
      aggZooms: this.aggregateZooms(id),
      indexFields: [...filterableFields(this.catalog, id).values()],
      onProgress,
    })
    this.datasetReplaced(id)
    return n
  }

  /** Forgets what is cached about a dataset replaced through another connection (a feed import worker). */
  datasetReplaced(id: string): void {
    this.infoCache.clear()
    this.reader.invalidate(id)
  }

  private get reader(): DatasetRecords {
    this.recordsReader ??= new DatasetRecords(this.db, this.catalog, (id) => this.info(id))
    return this.recordsReader
  }

  /** The records column index of a dataset's current version; null while it is built (see DatasetRecords). */
  columnIndex(id: string): ColumnIndex | null {
    return this.reader.index(id)
  }

  records(
    id: string,
    filters: readonly ColumnFilter[],
    limit: number,
    offset: number,
    sort?: SortKey,
  ): RecordsPage {
    return this.reader.records(mustDataset(this.catalog, id), filters, limit, offset, sort)
  }

  /** The database file (null for an in-memory store): tile index workers open it read-only. */
  get location(): string | null {
    return this.db.memory ? null : this.db.name
  }

  tileRows(id: string, box?: readonly [number, number, number, number]): TileRows {
    return tileRows(this.db, mustDataset(this.catalog, id), box)
  }

  largestInBox(id: string, box: MercatorBox, minSize: number, limit: number): LargestRows {
    return largestInBox(this.db, mustDataset(this.catalog, id), box, minSize, limit)
  }

  countInBox(id: string, box: readonly [number, number, number, number], max: number): number {
    const { features } = tableNames(mustDataset(this.catalog, id).id)
    return Number(
      this.db
        .prepare(
          `SELECT count(*) FROM (SELECT 1 FROM ${features}
             WHERE maxx >= ? AND minx <= ? AND maxy >= ? AND miny <= ? LIMIT ?)`,
        )
        .pluck()
        .get(box[0], box[2], box[1], box[3], Math.max(0, Math.floor(max))),
    )
  }

  /**
   * Builds the records indexes of every dataset (tile indexes: src/server/tiles/tileIndexes.ts),
   * one dataset per turn of the event loop, so requests are answered between them.
   */
  async warm(): Promise<void> {
    for (const d of this.catalog.datasets) {
      await new Promise((resolve) => setImmediate(resolve))
      this.columnIndex(d.id)
    }
  }

  featuresInBox(
    id: string,
    box: readonly [number, number, number, number],
    minSize: number,
    limit: number,
  ): { features: StoredFeature[]; matched: number; version: number } {
    // One read transaction: the version is the rows' (another connection may commit an import).
    return this.db.transaction(() => this.featuresInBoxRead(id, box, minSize, limit))()
  }

  private featuresInBoxRead(
    id: string,
    box: readonly [number, number, number, number],
    minSize: number,
    limit: number,
  ): { features: StoredFeature[]; matched: number; version: number } {
    const d = mustDataset(this.catalog, id)
    const { features } = tableNames(id)
    const version = this.readInfo(id).version
    // The tile index (src/server/tiles) answers once built; this scan serves the tiles meanwhile.
    const hits = this.db
      .prepare(
        `SELECT id, CASE WHEN size = 0 THEN 1 ELSE size END FROM ${features}
         WHERE maxx >= ? AND minx <= ? AND maxy >= ? AND miny <= ? AND (size = 0 OR size >= ?)`,
      )
      .raw()
      .all(box[0], box[2], box[1], box[3], minSize > 0 ? minSize : -1) as [number, number][]
    // `largest` truncates `hits`: count the matches first.
    const matched = hits.length
    const hit = { ids: largest(hits, Math.floor(limit)), matched }
    if (hit.ids.length === 0) return { features: [], matched: hit.matched, version }
    const cols = d.fields.map((f) => fieldColumn(f.name))
    const rows = this.db
      .prepare(
        `SELECT id, geom${cols.map((c) => ', ' + c).join('')} FROM ${features} WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .raw()
      .all(JSON.stringify(hit.ids)) as unknown[][]
    return { matched: hit.matched, features: rows.map((row) => storedFeature(d, row)), version }
  }

  allFeatures(id: string): StoredFeature[] {
    const d = mustDataset(this.catalog, id)
    const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
    const rows = this.db
      .prepare(`SELECT id, geom${cols} FROM ${tableNames(id).features} ORDER BY id`)
      .raw()
      .all() as unknown[][]
    return rows.map((row) => storedFeature(d, row))
  }

  cells(id: string, zoom: number, x: number, y: number): TileCells {
    const k = 2 ** CELL_BITS
    // One read transaction: the version is the cells' (another connection may commit an import).
    return this.db.transaction(() => ({
      version: this.readInfo(id).version,
      cells: this.db
        .prepare(
          `SELECT cx, cy, n FROM agg_cells WHERE dataset = ? AND level = ? AND cx BETWEEN ? AND ? AND cy BETWEEN ? AND ?`,
        )
        .all(id, zoom + CELL_BITS, x * k, x * k + k - 1, y * k, y * k + k - 1) as AggregateCell[],
    }))()
  }

  series(name: string): SeriesPoint[] {
    return this.db
      .prepare('SELECT t, value FROM series_points WHERE series = ? ORDER BY seq')
      .all(name) as SeriesPoint[]
  }

  replaceSeries(name: string, points: readonly SeriesPoint[]): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM series_points WHERE series = ?').run(name)
      const put = this.db.prepare('INSERT INTO series_points (series, seq, t, value) VALUES (?, ?, ?, ?)')
      points.forEach((p, i) => put.run(name, i, p.t, p.value))
    })()
  }

  getMeta(key: string): string | undefined {
    const v: unknown = this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key)
    return typeof v === 'string' ? v : undefined
  }

  setMeta(key: string, value: string): void {
    this.db
      .prepare(
        'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
      )
      .run(key, value)
  }

  close(): void {
    if (this.db.open) this.db.close()
    if (this.accountsHandle?.open) this.accountsHandle.close()
  }
}

/** Opens (creating if needed) the store in `dataDir`: WAL, migrations, one table pair per dataset. */
export function openStore(dataDir: string, catalog: Catalog): SqliteStore {
  fs.mkdirSync(dataDir, { recursive: true })
  const file = path.join(dataDir, STORE_FILE)
  const existed = fs.existsSync(file)
  const db = new Database(file)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('cache_size = -131072')
  db.pragma('mmap_size = 1073741824')
  db.pragma('busy_timeout = 5000')
  forgetAccountsMigrations(db)
  migrate(db)
  // A killed import's staging table goes now rather than at that dataset's next import.
  dropStaleStaging(db)
  ensureDatasetTables(db, catalog.datasets)
  const accounts = openAccountsDb(dataDir, existed ? file : undefined)
  const store = new SqliteStore(db, catalog, accounts)
  for (const d of catalog.datasets) {
    const zooms = store.aggregateZooms(d.id).join(',')
    const have = db.prepare('SELECT agg_levels FROM datasets WHERE id = ?').pluck().get(d.id)
    if (have !== zooms) rebuildCells(db, d, store.aggregateZooms(d.id))
  }
  return store
}
