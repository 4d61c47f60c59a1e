import type Database from 'better-sqlite3'
import type { Geometry } from 'geojson'
import type { DatasetDef, FieldDef } from './catalog'
import { ColumnIndexBuilder, persistColumnIndex } from './columnIndexStore'
import {
  createStagingTable,
  dropRetired,
  fieldColumn,
  recreateDatasetTables,
  swapInStaging,
  tableNames,
} from './datasetTables'
import { countCells, writeCells, type ZoomCells } from './aggregateCells'
import { claimReplacement, dropStaleStaging, releaseReplacement } from './staleStaging'
import type { ColumnIndex } from './columnIndex'
import { encodeGeometry, mercX, mercY, toParts } from './geometryCodec'
import { sqliteCodec, updateWhere } from './rows/codec'

/** One feature to store: GeoJSON geometry (lon/lat) + attributes; `line` names it in errors. */
export interface FeatureInput {
  geometry: Geometry | null | undefined
  properties: Record<string, unknown> | null | undefined
  line?: number
  /**
   * Keep it as a record when it has no geometry (a zone-only alert without zone polygons): in the
   * records API with `bbox: null`, never in tiles, archives, alerts or a bbox query. Without it a
   * missing geometry is an error.
   */
  recordOnly?: boolean
}

/** A feature that cannot be stored; `line` is the source line (1-based) when known. */
export class FeatureError extends Error {
  constructor(
    readonly line: number | undefined,
    message: string,
  ) {
    super(line === undefined ? message : `line ${line}: ${message}`)
  }
}

export { CELL_BITS } from './aggregateCells'

export type ProgressFn = (done: number) => void

function coerce(f: FieldDef, v: unknown): string | number | null {
  if (v === undefined || v === null || v === '') return null
  if (f.type === 'number') {
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN
    if (!Number.isFinite(n)) throw new Error(`field ${f.name}: ${JSON.stringify(v)} is not a number`)
    return n
  }
  if (typeof v === 'object')
    throw new Error(`field ${f.name}: expected a ${f.type}, got ${JSON.stringify(v)}`)
  const s = String(v)
  if (f.type === 'date' && Number.isNaN(Date.parse(s)))
    throw new Error(`field ${f.name}: ${JSON.stringify(s)} is not a date`)
  return s
}

export interface ReplaceOptions {
  /** Zooms whose aggregate cells are precomputed (see tiles/tilePolicy). */
  aggZooms: readonly number[]
  /** Fields of the records column index, persisted with the data (the filterable ones). */
  indexFields?: readonly FieldDef[]
  onProgress?: ProgressFn
  /**
   * The cells and column index computed by whoever produced the rows (the import worker),
   * asked for once the rows are consumed; without it they are computed here.
   */
  precomputed?: () => { cells: ZoomCells[]; index: ColumnIndex }
}

/** Rows per INSERT statement (14 columns for the peer's buildings: well under SQLite's 32,766 variables). */
const BATCH = 64

/** A feature checked and encoded for storage: field values in dataset field order + geometry (NaN bbox, no parts: a record only). */
export interface EncodedRow {
  values: (string | number | null)[]
  minx: number
  miny: number
  maxx: number
  maxy: number
  size: number
  blob: Uint8Array
}

/** The geometry blob of a record kept without geometry: zero parts. */
const NO_PARTS: Uint8Array = encodeGeometry([], 'point').blob

/** Checks and encodes one feature; the error names the source line. */
export function encodeFeature(d: DatasetDef, feature: FeatureInput): EncodedRow {
  try {
    const props = feature.properties ?? {}
    const values = d.fields.map((f) => coerce(f, props[f.name]))
    if (feature.recordOnly && (feature.geometry === null || feature.geometry === undefined))
      return { values, minx: NaN, miny: NaN, maxx: NaN, maxy: NaN, size: NaN, blob: NO_PARTS }
    const g = encodeGeometry(toParts(feature.geometry, d.geometry), d.geometry)
    return { values, minx: g.minx, miny: g.miny, maxx: g.maxx, maxy: g.maxy, size: g.size, blob: g.blob }
  } catch (e) {
    throw new FeatureError(feature.line, e instanceof Error ? e.message : String(e))
  }
}

function* encodeAll(d: DatasetDef, features: Iterable<FeatureInput>): Generator<EncodedRow> {
  for (const f of features) yield encodeFeature(d, f)
}

/**
 * Replaces all features of a dataset inside one transaction: on any error nothing changes
 * and the previous data stays. Rows go in with multi-row INSERTs; the aggregate cells for
 * `aggZooms` and the records column index are computed in the same pass and written with them.
 */
export function replaceDataset(
  db: Database.Database,
  d: DatasetDef,
  features: Iterable<FeatureInput>,
  options: ReplaceOptions,
): number {
  return replaceDatasetRows(db, d, encodeAll(d, features), options)
}

/** Rows per write transaction while a replacement fills its staging table (a multiple of BATCH). */
const COMMIT_EVERY = BATCH * 800

/**
 * What a replacement learns from its rows as they go by (both stores): the count, the bbox of the
 * located rows and — unless the import worker computed them (`precomputed`) — the records column
 * index and the centres the aggregate cells are counted from.
 */
export class RowTally {
  n = 0
  readonly box = [Infinity, Infinity, -Infinity, -Infinity]
  private readonly centerX: number[] = []
  private readonly centerY: number[] = []
  private readonly index: ColumnIndexBuilder
  private readonly indexAt: number[]
  private readonly picked: unknown[]

  constructor(
    d: DatasetDef,
    private readonly options: ReplaceOptions,
  ) {
    const indexFields = options.indexFields ?? []
    this.index = new ColumnIndexBuilder(indexFields)
    this.indexAt = indexFields.map((f) => d.fields.findIndex((x) => x.name === f.name))
    this.picked = new Array<unknown>(indexFields.length)
  }

  /** Counts one row; answers its id (1, 2, …). */
  add(g: EncodedRow): number {
    const n = ++this.n
    const { box } = this
    const located = !Number.isNaN(g.minx)
    // A record only (no geometry) is in the column index (records API), not in the bbox or the cells.
    if (located) {
      if (g.minx < (box[0] as number)) box[0] = g.minx
      if (g.miny < (box[1] as number)) box[1] = g.miny
      if (g.maxx > (box[2] as number)) box[2] = g.maxx
      if (g.maxy > (box[3] as number)) box[3] = g.maxy
    }
    if (!this.options.precomputed) {
      for (let j = 0; j < this.indexAt.length; j++) this.picked[j] = g.values[this.indexAt[j] as number]
      this.index.add(n, this.picked)
      if (located) {
        this.centerX.push(mercX((g.minx + g.maxx) / 2))
        this.centerY.push(mercY((g.miny + g.maxy) / 2))
      }
    }
    if (this.options.onProgress && n % 10000 === 0) this.options.onProgress(n)
    return n
  }

  /** The bbox of the located rows, or null when none has a geometry. */
  get bbox(): [number, number, number, number] | null {
    const [x0, y0, x1, y1] = this.box as [number, number, number, number]
    return Number.isFinite(x0) ? [x0, y0, x1, y1] : null
  }

  /** The aggregate cells and column index of the rows (checked against the row count). */
  extras(): { cells: ZoomCells[]; index: ColumnIndex } {
    const { precomputed, aggZooms } = this.options
    const out = precomputed
      ? precomputed()
      : { cells: countCells(this.centerX, this.centerY, aggZooms), index: this.index.build() }
    if (out.index.ids.length !== this.n)
      throw new Error(`column index has ${out.index.ids.length} rows, expected ${this.n}`)
    return out
  }
}

/**
 * `replaceDataset` over rows already encoded (e.g. by an import worker thread). The new rows are
 * written beside the live ones, into a staging table, in transactions of COMMIT_EVERY rows, so
 * the store's write lock is never held for long (readers never wait in WAL mode; writers such as
 * the server's own saves wait one batch at most). Then one short transaction swaps the staging
 * table in and writes the version, bbox, cells and column index: readers see the old data or the
 * new, never a mix. On any error the staging table goes and the live data stays as it was.
 * Inside a caller's transaction (the demo seed) everything happens in that transaction instead.
 */
export function replaceDatasetRows(
  db: Database.Database,
  d: DatasetDef,
  rows: Iterable<EncodedRow>,
  options: ReplaceOptions,
): number {
  if (db.inTransaction) {
    recreateDatasetTables(db, d)
    return finish(db, d, fillTable(db, d, tableNames(d.id).features, rows, options, null), options)
  }
  dropStaleStaging(db)
  const staging = db
    .transaction(() => {
      claimReplacement(db, d.id)
      return createStagingTable(db, d)
    })
    .immediate()
  try {
    db.exec('BEGIN IMMEDIATE')
    const filled = fillTable(db, d, staging, rows, options, () => {
      db.exec('COMMIT')
      db.exec('BEGIN IMMEDIATE')
    })
    db.exec('COMMIT')
    const n = db.transaction(() => {
      swapInStaging(db, d)
      return finish(db, d, filled, options)
    })()
    dropRetired(db, d)
    releaseReplacement(db, d.id)
    return n
  } catch (err) {
    if (db.inTransaction) db.exec('ROLLBACK')
    db.exec(`DROP TABLE IF EXISTS ${staging}`)
    releaseReplacement(db, d.id)
    throw err
  }
}

/** Inserts the rows into `table` (multi-row INSERTs), tallying bbox, centres and column index. */
function fillTable(
  db: Database.Database,
  d: DatasetDef,
  table: string,
  rows: Iterable<EncodedRow>,
  options: ReplaceOptions,
  commit: (() => void) | null,
): RowTally {
  const cols = d.fields.map((f) => fieldColumn(f.name))
  const width = 7 + cols.length
  const tuple = `(${Array.from({ length: width }, () => '?').join(', ')})`
  const sql = `INSERT INTO ${table} (id, minx, miny, maxx, maxy, size, geom${cols.map((c) => ', ' + c).join('')}) VALUES `
  const insertMany = db.prepare(sql + Array.from({ length: BATCH }, () => tuple).join(', '))
  const insertOne = db.prepare(sql + tuple)
  const pending: unknown[] = []
  const tally = new RowTally(d, options)
  for (const g of rows) {
    const n = tally.add(g)
    if (!Number.isNaN(g.minx)) pending.push(n, g.minx, g.miny, g.maxx, g.maxy, g.size, g.blob)
    else pending.push(n, null, null, null, null, null, g.blob)
    for (const v of g.values) pending.push(v)
    if (pending.length === width * BATCH) {
      insertMany.run(pending)
      pending.length = 0
    }
    if (commit && n % COMMIT_EVERY === 0 && pending.length === 0) commit()
  }
  for (let i = 0; i < pending.length; i += width) insertOne.run(pending.slice(i, i + width))
  return tally
}

/** What an import records in its datasets row besides the version (both stores, in this order). */
export const DATASET_META_COLUMNS = [
  'feature_count',
  'minx',
  'miny',
  'maxx',
  'maxy',
  'agg_levels',
  'updated_at',
] as const

export function datasetMetaParams(tally: RowTally, options: ReplaceOptions): unknown[] {
  const { n, bbox } = tally
  return [
    n,
    bbox?.[0] ?? null,
    bbox?.[1] ?? null,
    bbox?.[2] ?? null,
    bbox?.[3] ?? null,
    options.aggZooms.join(','),
    new Date().toISOString(),
  ]
}

/** Cells, version, count, bbox and column index of the rows just written (caller's transaction). */
function finish(db: Database.Database, d: DatasetDef, tally: RowTally, options: ReplaceOptions): number {
  const { n } = tally
  const extras = tally.extras()
  writeCells(db, d.id, extras.cells)
  const version = Number(db.prepare('SELECT version FROM datasets WHERE id = ?').pluck().get(d.id) ?? 0) + 1
  db.prepare(updateWhere(sqliteCodec, 'datasets', ['version', ...DATASET_META_COLUMNS], 'id')).run(
    version,
    ...datasetMetaParams(tally, options),
    d.id,
  )
  persistColumnIndex(db, d.id, version, extras.index, options.indexFields ?? [])
  options.onProgress?.(n)
  return n
}

/** Rebuilds only the aggregate cells (when the configured aggregate zooms changed). */
export function rebuildCells(db: Database.Database, d: DatasetDef, aggZooms: readonly number[]): void {
  const { features: table } = tableNames(d.id)
  db.transaction(() => {
    const centerX: number[] = []
    const centerY: number[] = []
    for (const row of db
      .prepare(`SELECT minx, miny, maxx, maxy FROM ${table} WHERE minx IS NOT NULL`)
      .raw()
      .iterate()) {
      const [minx, miny, maxx, maxy] = row as number[]
      centerX.push(mercX(((minx as number) + (maxx as number)) / 2))
      centerY.push(mercY(((miny as number) + (maxy as number)) / 2))
    }
    writeCells(db, d.id, countCells(centerX, centerY, aggZooms))
    db.prepare('UPDATE datasets SET agg_levels = ? WHERE id = ?').run(aggZooms.join(','), d.id)
  })()
}
