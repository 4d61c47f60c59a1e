import type { AppStore } from '../AppStore'
import type { Catalog, DatasetDef } from '../catalog'
import { catalogDataset, filterableFields, mustDataset } from '../catalog'
import type { ColumnFilter, ColumnIndex, SortKey } from '../columnIndex'
import type { DatasetFreshness } from '../datasetFreshness'
import { fieldColumn, tableNames } from '../datasetTables'
import type { AggregateCell, DatasetInfo, RecordsPage, SeriesPoint, StoredFeature, TileCells } from '../Store'
import { storedFeature } from '../storedFeature'
import {
  LargestCollector,
  largestStatements,
  SMALLER_PAGE,
  type LargestRows,
  type MercatorBox,
  type TileRows,
} from '../tileRows'
import {
  CELL_BITS,
  encodeFeature,
  type EncodedRow,
  type FeatureInput,
  type ProgressFn,
  type ReplaceOptions,
} from '../writeDataset'
import { aggregateZooms } from '../../tiles/tilePolicy'
import { pgAccountStores, type PgAccountStores } from './accounts'
import { ensurePgDatasetTables } from './pgDatasetTables'
import { migratePg, pgDatabase, type PgDatabase } from './pgDatabase'
import { PgCellCache } from './pgCellCache'
import { PgFeedStore } from './pgFeedStore'
import { PgFireRunStore } from './pgFireRunStore'
import { PgTileArchives } from './pgTileArchives'
import { pgDatasetFreshness } from './pgFreshness'
import { PgGridStore } from './pgGridStore'
import { PgOgcFeatureReader } from './pgOgcFeatures'
import { PgRecords } from './pgRecords'
import { dropStalePgStaging } from './pgStaleStaging'
import { pgReplaceDatasetRows, rebuildPgCells } from './pgWriteDataset'

/** How long a dataset's info is trusted without a `datasetReplaced` (as SQLite's INFO_TTL_MS). */
const INFO_TTL_MS = 250

type Box = [number, number, number, number]

interface InfoEntry {
  at: number
  info: DatasetInfo | null
  pending: Promise<DatasetInfo> | null
}

function bboxOf(minx: unknown, miny: unknown, maxx: unknown, maxy: unknown): Box | null {
  return typeof minx === 'number' &&
    typeof miny === 'number' &&
    typeof maxx === 'number' &&
    typeof maxy === 'number'
    ? [minx, miny, maxx, maxy]
    : null
}

/**
 * The shared store of several servers: every area of the AppStore over one PostgreSQL/PostGIS
 * database (a pool per process), with the SQLite store's answers. Features live in ds_<dataset>
 * tables with a PostGIS geometry (GiST) beside the encoded blob the tile engine reads; tiles are
 * cut by our own engine from `tileRows` (location is null: no file for worker threads). A
 * dataset's info is cached per dataset for INFO_TTL_MS and dropped at once by `datasetReplaced`
 * (the cluster calls it on the `emberline_dataset` notification of an import by any server).
 */
export class PgStore implements AppStore {
  readonly location = null
  private readonly infoCache = new Map<string, InfoEntry>()
  /** Bumped by every datasetReplaced: an info read begun before it is not cached. */
  private generation = 0
  private readonly reader: PgRecords
  /** Aggregate cells of the current versions, per dataset and level (aggregated tiles ask no query). */
  private readonly cellCache: PgCellCache
  private accountStores: PgAccountStores | null = null
  readonly grids: PgGridStore
  readonly feeds: PgFeedStore
  readonly ogc: PgOgcFeatureReader
  readonly fireRuns: PgFireRunStore
  /** The shared tile archives every server serves (tiles/sharedArchives.ts, docs/adr/0003). */
  readonly tileArchiveStorage: PgTileArchives
  private closed = false

  constructor(
    readonly db: PgDatabase,
    readonly catalog: Catalog,
    /** DATABASE_URL of the pool (null when unknown): export worker threads open their own connection on it. */
    readonly url: string | null = null,
    /** How long a dataset's info is trusted without a `datasetReplaced` (tests hold it to stand for a notice not yet heard). */
    private readonly infoTtlMs = INFO_TTL_MS,
  ) {
    this.reader = new PgRecords(db, catalog, (id) => this.info(id))
    this.cellCache = new PgCellCache(db)
    this.grids = new PgGridStore(db)
    this.feeds = new PgFeedStore(db)
    this.ogc = new PgOgcFeatureReader(db)
    this.fireRuns = new PgFireRunStore(db)
    this.tileArchiveStorage = new PgTileArchives(db)
  }

  private get accounts(): PgAccountStores {
    this.accountStores ??= pgAccountStores(this.db)
    return this.accountStores
  }
  get members() {
    return this.accounts.members
  }
  get tokens() {
    return this.accounts.tokens
  }
  get machines() {
    return this.accounts.machines
  }
  get acks() {
    return this.accounts.acks
  }
  get preferences() {
    return this.accounts.preferences
  }
  get subscriptions() {
    return this.accounts.subscriptions
  }
  get delivery() {
    return this.accounts.delivery
  }
  get pspsEvents() {
    return this.accounts.pspsEvents
  }

  freshness(def: DatasetDef): Promise<DatasetFreshness> {
    return pgDatasetFreshness(this.db, def)
  }

  /** One transaction around `fn`: every store write it makes joins it (PgDatabase.tx). */
  async transaction<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await this.db.tx(fn)
    } catch (err) {
      // What was read inside it (infos, records indexes) may describe rolled-back rows.
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
   * A dataset's version, feature count and bbox: answered from memory (no promise) while the
   * cached copy is younger than INFO_TTL_MS and no `datasetReplaced` came since; concurrent
   * misses share one query. Inside a transaction it is read on the transaction's client.
   */
  info(id: string): DatasetInfo | Promise<DatasetInfo> {
    if (this.db.inTransaction) return this.readInfo(id)
    const now = performance.now()
    const entry = this.infoCache.get(id)
    if (entry?.info && now - entry.at < this.infoTtlMs) return entry.info
    if (entry?.pending) return entry.pending
    const generation = this.generation
    const next: InfoEntry = { at: now, info: null, pending: null }
    next.pending = this.readInfo(id).then(
      (info) => {
        if (this.infoCache.get(id) === next) {
          if (generation === this.generation) this.infoCache.set(id, { at: now, info, pending: null })
          else this.infoCache.delete(id)
        }
        return info
      },
      (err: unknown) => {
        if (this.infoCache.get(id) === next) this.infoCache.delete(id)
        throw err
      },
    )
    this.infoCache.set(id, next)
    return next.pending
  }

  private async readInfo(id: string): Promise<DatasetInfo> {
    const row = (
      await this.db.rows(
        'SELECT version, feature_count, minx, miny, maxx, maxy FROM datasets WHERE id = $1',
        [id],
      )
    )[0]
    if (!row) return { version: 0, count: 0, bbox: null }
    return { version: Number(row[0]), count: Number(row[1]), bbox: bboxOf(row[2], row[3], row[4], row[5]) }
  }

  /** True when no dataset holds a feature (a fresh store: first start seeds it). */
  async isEmpty(): Promise<boolean> {
    const row = await this.db.one<{ n: number }>('SELECT coalesce(sum(feature_count), 0) AS n FROM datasets')
    return Number(row?.n ?? 0) === 0
  }

  async replaceDataset(
    id: string,
    features: Iterable<FeatureInput>,
    onProgress?: ProgressFn,
  ): Promise<number> {
    const d = mustDataset(this.catalog, id)
    return this.importEncodedRows(d, encodeAll(d, features), {
      aggZooms: this.aggregateZooms(id),
      indexFields: [...filterableFields(this.catalog, id).values()],
      onProgress,
    })
  }

  /**
   * Replaces a dataset with rows already encoded (the import CLI's worker, as SQLite's
   * importEncodedRows): COPY into a staging table, swapped in with a version bump and a
   * notification (pgWriteDataset.ts). Answers the row count.
   */
  async importEncodedRows(
    d: DatasetDef,
    rows: Iterable<EncodedRow> | AsyncIterable<EncodedRow>,
    options: ReplaceOptions,
  ): Promise<number> {
    try {
      const { n } = await pgReplaceDatasetRows(this.db, d, rows, options)
      return n
    } finally {
      this.datasetReplaced(d.id)
    }
  }

  /** Forgets what is cached about a dataset (replaced here, or by another server: its NOTIFY). */
  datasetReplaced(id: string): void {
    this.generation++
    this.infoCache.delete(id)
    this.reader.invalidate(id)
    this.cellCache.drop(id)
  }

  /** The records column index of a dataset's current version (loaded or built on first use). */
  columnIndex(id: string): Promise<ColumnIndex> {
    mustDataset(this.catalog, id)
    return this.reader.index(id)
  }

  records(
    id: string,
    filters: readonly ColumnFilter[],
    limit: number,
    offset: number,
    sort?: SortKey,
  ): Promise<RecordsPage> {
    return this.reader.records(mustDataset(this.catalog, id), filters, limit, offset, sort)
  }

  /**
   * Every row with geometry (`[id, size, geom, ...fields]`, id order) with the version, count and
   * bbox they belong to: read in one REPEATABLE READ snapshot, so the stamp matches the rows.
   */
  async tileRows(id: string, box?: readonly [number, number, number, number]): Promise<TileRows> {
    const d = mustDataset(this.catalog, id)
    const { features } = tableNames(id)
    const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
    const client = await this.db.connect()
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      const meta = await client.query<unknown[]>({
        text: 'SELECT version, minx, miny, maxx, maxy FROM datasets WHERE id = $1',
        values: [id],
        rowMode: 'array',
      })
      // With a box, `count` is the rows read (a block of a render), not the dataset's.
      const count = box
        ? null
        : await client.query<unknown[]>({ text: `SELECT count(*) FROM ${features}`, rowMode: 'array' })
      const inBox = box
        ? ' AND geometry && ST_MakeEnvelope($1, $2, $3, $4, 4326) AND maxx >= $1 AND minx <= $3 AND maxy >= $2 AND miny <= $4'
        : ''
      const rows = await client.query<unknown[]>({
        text: `SELECT id, size, geom${cols} FROM ${features} WHERE minx IS NOT NULL${inBox} ORDER BY id`,
        values: box ? [...box] : [],
        rowMode: 'array',
      })
      await client.query('COMMIT')
      const m = meta.rows[0] ?? []
      return {
        version: Number(m[0] ?? 0),
        count: count ? Number(count.rows[0]?.[0] ?? 0) : rows.rows.length,
        bbox: bboxOf(m[1], m[2], m[3], m[4]),
        rows: rows.rows,
      }
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw err
    } finally {
      client.release()
    }
  }

  async countInBox(id: string, box: readonly [number, number, number, number], max: number): Promise<number> {
    const { features } = tableNames(mustDataset(this.catalog, id).id)
    const rows = await this.db.rows(
      `SELECT count(*) FROM (SELECT 1 FROM ${features} WHERE geometry && ST_MakeEnvelope($1, $2, $3, $4, 4326)
         AND maxx >= $1 AND minx <= $3 AND maxy >= $2 AND miny <= $4 LIMIT $5) hits`,
      [box[0], box[1], box[2], box[3], Math.max(0, Math.floor(max))],
    )
    return Number(rows[0]?.[0] ?? 0)
  }

  /**
   * `largestInBox` in one REPEATABLE READ snapshot (the version matches the rows): the ranked pages
   * go down the index on the rank (`<table>_rank`, pgDatasetTables.ts), so a dense tile's largest
   * come first whatever the table's size; the statements and row checks are SQLite's (tileRows.ts).
   */
  async largestInBox(id: string, box: MercatorBox, minSize: number, limit: number): Promise<LargestRows> {
    const d = mustDataset(this.catalog, id)
    const client = await this.db.connect()
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
      const rows = async ({ sql, params }: { sql: string; params: unknown[] }) =>
        (await client.query<unknown[]>({ text: sql, values: params, rowMode: 'array' })).rows
      const meta = await rows({ sql: 'SELECT version FROM datasets WHERE id = $1', params: [id] })
      const st = largestStatements(d, 'postgres', box)
      const c = new LargestCollector(box, minSize, Math.max(0, Math.floor(limit)))
      for (let next = c.nextPage(); next; next = c.nextPage())
        if (!c.addPage(await rows(st.page(minSize, next.after, c.pageRows)))) break
      while (c.needsSmaller)
        if (!c.addSmaller(await rows(st.smaller(minSize, c.smallerAfter, SMALLER_PAGE)), SMALLER_PAGE)) break
      await client.query('COMMIT')
      return c.result(Number(meta[0]?.[0] ?? 0))
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined)
      throw err
    } finally {
      client.release()
    }
  }

  /** Builds the records indexes of every dataset (tile data: src/server/tiles/tileIndexes.ts). */
  async warm(): Promise<void> {
    for (const d of this.catalog.datasets) await this.columnIndex(d.id)
    // Every aggregated zoom's cells too, so the first aggregated tiles of a start ask no query.
    for (const d of this.catalog.datasets)
      for (const z of this.aggregateZooms(d.id)) await this.cells(d.id, z, 0, 0)
  }

  /**
   * The GiST index finds the candidates; the stored bbox columns decide, exactly as in SQLite; the
   * `limit` largest (size descending, ties by id: `largest`) are chosen here too. One statement, so
   * one snapshot: the dataset's version read with the rows is theirs (an import may commit between
   * two statements — the tile cache keys the tile by this version).
   */
  async featuresInBox(
    id: string,
    box: readonly [number, number, number, number],
    minSize: number,
    limit: number,
  ): Promise<{ features: StoredFeature[]; matched: number; version: number }> {
    const d = mustDataset(this.catalog, id)
    const { features } = tableNames(id)
    const cols = d.fields.map((f) => ', f.' + fieldColumn(f.name)).join('')
    const rows = await this.db.rows(
      `WITH hits AS (
         SELECT id, CASE WHEN size = 0 THEN 1 ELSE size END AS s FROM ${features}
         WHERE geometry && ST_MakeEnvelope($1, $2, $3, $4, 4326)
           AND maxx >= $1 AND minx <= $3 AND maxy >= $2 AND miny <= $4 AND (size = 0 OR size >= $5)
       ), top AS (SELECT id FROM hits ORDER BY s DESC, id LIMIT $7)
       SELECT f.id, f.geom${cols}, d.version, (SELECT count(*) FROM hits)
       FROM datasets d LEFT JOIN (top JOIN ${features} f ON f.id = top.id) ON true
       WHERE d.id = $6 ORDER BY f.id`,
      [box[0], box[1], box[2], box[3], minSize > 0 ? minSize : -1, id, limitOf(limit)],
    )
    const first = rows[0]
    if (!first) return { features: [], matched: 0, version: 0 }
    const at = 2 + d.fields.length
    return {
      version: Number(first[at]),
      matched: Number(first[at + 1]),
      features: first[0] === null ? [] : rows.map((row) => storedFeature(d, row)),
    }
  }

  async allFeatures(id: string): Promise<StoredFeature[]> {
    const d = mustDataset(this.catalog, id)
    const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
    const rows = await this.db.rows(`SELECT id, geom${cols} FROM ${tableNames(id).features} ORDER BY id`)
    return rows.map((row) => storedFeature(d, row))
  }

  /**
   * The aggregate cells of tile (zoom, x, y) in (cx, cy) order: from memory (PgCellCache, one
   * load per dataset version and level) for the version `info` answers now; read directly inside a
   * transaction or when the stored version moved on meanwhile.
   */
  async cells(id: string, zoom: number, x: number, y: number): Promise<TileCells> {
    if (!this.db.inTransaction) {
      const { version } = await this.info(id)
      const cached = await this.cellCache.cells(id, version, zoom, x, y)
      if (cached) return { version, cells: cached }
    }
    const k = 2 ** CELL_BITS
    // One statement, one snapshot: the version is the cells'.
    const rows = await this.db.rows(
      `SELECT d.version, c.cx, c.cy, c.n FROM datasets d
       LEFT JOIN agg_cells c ON c.dataset = d.id AND c.level = $2 AND c.cx BETWEEN $3 AND $4
         AND c.cy BETWEEN $5 AND $6
       WHERE d.id = $1 ORDER BY c.cx, c.cy`,
      [id, zoom + CELL_BITS, x * k, x * k + k - 1, y * k, y * k + k - 1],
    )
    const cells: AggregateCell[] = []
    for (const r of rows)
      if (r[1] !== null) cells.push({ cx: Number(r[1]), cy: Number(r[2]), n: Number(r[3]) })
    return { version: Number(rows[0]?.[0] ?? 0), cells }
  }

  async series(name: string): Promise<SeriesPoint[]> {
    return this.db.query<SeriesPoint>('SELECT t, value FROM series_points WHERE series = $1 ORDER BY seq', [
      name,
    ])
  }

  async replaceSeries(name: string, points: readonly SeriesPoint[]): Promise<void> {
    await this.db.tx(async () => {
      await this.db.run('DELETE FROM series_points WHERE series = $1', [name])
      if (points.length === 0) return
      await this.db.run(
        `INSERT INTO series_points (series, seq, t, value)
         SELECT $1, s.seq - 1, s.t, s.value FROM unnest($2::text[], $3::double precision[]) WITH ORDINALITY AS s(t, value, seq)`,
        [name, points.map((p) => p.t), points.map((p) => p.value)],
      )
    })
  }

  async getMeta(key: string): Promise<string | undefined> {
    return (await this.db.one<{ value: string }>('SELECT value FROM meta WHERE key = $1', [key]))?.value
  }

  async setMeta(key: string, value: string): Promise<void> {
    await this.db.run(
      'INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
      [key, value],
    )
  }

  /** Ends the pool (once). */
  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    await this.db.close()
  }
}

/** A feature limit as a LIMIT parameter (null: no limit). */
function limitOf(limit: number): number | null {
  return Number.isFinite(limit) ? Math.max(0, Math.floor(limit)) : null
}

function* encodeAll(d: DatasetDef, features: Iterable<FeatureInput>): Generator<EncodedRow> {
  for (const f of features) yield encodeFeature(d, f)
}

export interface PgStoreOptions {
  /** Pool size of this process (default 10). */
  max?: number
  applicationName?: string
  /** How long a dataset's info is trusted without a notice (default INFO_TTL_MS, 250 ms). */
  infoTtlMs?: number
}

/**
 * Opens the PostgreSQL store on `url`: a pool, the migrations (under an advisory lock), one
 * feature table per catalog dataset (columns added for new fields), and the aggregate cells
 * rebuilt where the catalog's aggregate zooms changed — as openStore() does for SQLite.
 */
export async function openPgStore(
  url: string,
  catalog: Catalog,
  opts: PgStoreOptions = {},
): Promise<PgStore> {
  const db = pgDatabase({ url, max: opts.max, applicationName: opts.applicationName })
  try {
    await migratePg(db)
    // A staging table no running import owns (its dataset's lock free) goes at every open.
    await dropStalePgStaging(db)
    await ensurePgDatasetTables(db, catalog.datasets)
    const store = new PgStore(db, catalog, url, opts.infoTtlMs)
    const have = new Map(
      (await db.query<{ id: string; agg_levels: string }>('SELECT id, agg_levels FROM datasets')).map((r) => [
        r.id,
        r.agg_levels,
      ]),
    )
    for (const d of catalog.datasets) {
      const zooms = store.aggregateZooms(d.id)
      if (have.get(d.id) !== zooms.join(',')) await rebuildPgCells(db, d, zooms)
    }
    return store
  } catch (err) {
    await db.close().catch(() => undefined)
    throw err
  }
}
