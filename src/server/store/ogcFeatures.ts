import type Database from 'better-sqlite3'
import type { DatasetDef } from './catalog'
import type { Awaitable } from './Awaitable'
import { fieldColumn, tableNames } from './datasetTables'

/** Features with geometry by id, and per-row extents, for the OGC API and exports. */
export interface OgcFeatureStorage {
  /** Geometry blobs of `ids` (missing ids are absent from the map). */
  geometries(d: DatasetDef, ids: readonly number[]): Awaitable<Map<number, Uint8Array>>
  /** Whole rows of `ids`, in the order of `ids`. */
  rows(d: DatasetDef, ids: readonly number[]): Awaitable<OgcFeatureRow[]>
  /** Every id of the dataset, in id order. */
  allIds(d: DatasetDef): Awaitable<number[]>
  /** Ids (id order) of the rows whose fields pass `keep` (the fallback while a column index is built). */
  scanIds(d: DatasetDef, fields: readonly string[], keep: (values: unknown[]) => boolean): Awaitable<number[]>
  /** The extents of the dataset's current version (read once per version, then kept). */
  extents(d: DatasetDef, version: number): Awaitable<DatasetExtents>
}

/** One stored feature for the OGC API and exports: geometry blob (geometryCodec) and raw field values. */
export interface OgcFeatureRow {
  id: number
  geom: Uint8Array
  properties: Record<string, string | number | null>
}

/**
 * Per-row bbox and time of one dataset version, in id order, for `bbox` and `datetime`
 * filtering without touching the table (row position = the records column index's position).
 */
export interface DatasetExtents {
  version: number
  ids: Int32Array
  minx: Float64Array
  miny: Float64Array
  maxx: Float64Array
  maxy: Float64Array
  /** The temporal field (first `date` field), epoch ms per row (NaN: missing); null when none. */
  times: Float64Array | null
  /** Earliest and latest time of the dataset (null when none). */
  timeRange: [number, number] | null
}

/** Same conversion as the records API (datasetRecords.toRecord): numbers and strings, else null. */
function rawValue(v: unknown): string | number | null {
  return typeof v === 'number' || typeof v === 'string' ? v : null
}

/** The field OGC `datetime` filters on: the dataset's first `date` field. */
export function temporalField(d: DatasetDef): string | undefined {
  return d.fields.find((f) => f.type === 'date')?.name
}

/**
 * Extents from rows `[id, minx, miny, maxx, maxy, time?]` in id order (`n` = the row count read
 * before; fewer rows are kept as read). Both stores read their rows into it.
 */
export function extentsFromRows(
  version: number,
  n: number,
  hasTime: boolean,
  rows: Iterable<unknown[]>,
): DatasetExtents {
  const ext: DatasetExtents = {
    version,
    ids: new Int32Array(n),
    minx: new Float64Array(n),
    miny: new Float64Array(n),
    maxx: new Float64Array(n),
    maxy: new Float64Array(n),
    times: hasTime ? new Float64Array(n) : null,
    timeRange: null,
  } satisfies DatasetExtents
  let i = 0
  let lo = Infinity
  let hi = -Infinity
  for (const row of rows) {
    if (i >= n) break
    ext.ids[i] = Number(row[0])
    // A record without geometry gets an empty (inverted) box: no bbox query ever meets it.
    const located = row[1] !== null
    ext.minx[i] = located ? Number(row[1]) : Infinity
    ext.miny[i] = located ? Number(row[2]) : Infinity
    ext.maxx[i] = located ? Number(row[3]) : -Infinity
    ext.maxy[i] = located ? Number(row[4]) : -Infinity
    if (ext.times) {
      const t = typeof row[5] === 'string' ? Date.parse(row[5]) : NaN
      ext.times[i] = t
      if (t < lo) lo = t
      if (t > hi) hi = t
    }
    i++
  }
  // Rows deleted between the count and the read: keep what was read.
  const out: DatasetExtents = {
    version,
    ids: ext.ids.subarray(0, i),
    minx: ext.minx.subarray(0, i),
    miny: ext.miny.subarray(0, i),
    maxx: ext.maxx.subarray(0, i),
    maxy: ext.maxy.subarray(0, i),
    times: ext.times ? ext.times.subarray(0, i) : null,
    timeRange: Number.isFinite(lo) && Number.isFinite(hi) ? [lo, hi] : null,
  }
  return out
}

/** Reads features with geometry by id, and the per-row extents, for the OGC routes and exports. */
export class OgcFeatureReader implements OgcFeatureStorage {
  private readonly extentCache = new Map<string, DatasetExtents>()

  constructor(private readonly db: Database.Database) {}

  /** Geometry blobs of `ids` (missing ids are absent from the map). */
  geometries(d: DatasetDef, ids: readonly number[]): Map<number, Uint8Array> {
    const out = new Map<number, Uint8Array>()
    if (ids.length === 0) return out
    const rows = this.db
      .prepare(
        `SELECT id, geom FROM ${tableNames(d.id).features} WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .raw()
      .all(JSON.stringify(ids)) as [number, Uint8Array][]
    for (const [id, geom] of rows) out.set(Number(id), geom)
    return out
  }

  /** Whole rows of `ids`, in the order of `ids`. */
  rows(d: DatasetDef, ids: readonly number[]): OgcFeatureRow[] {
    if (ids.length === 0) return []
    const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
    const rows = this.db
      .prepare(
        `SELECT id, geom${cols} FROM ${tableNames(d.id).features} WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .raw()
      .all(JSON.stringify(ids)) as unknown[][]
    const byId = new Map<number, OgcFeatureRow>()
    for (const row of rows) {
      const properties: Record<string, string | number | null> = {}
      d.fields.forEach((f, i) => (properties[f.name] = rawValue(row[i + 2])))
      byId.set(Number(row[0]), { id: Number(row[0]), geom: row[1] as Uint8Array, properties })
    }
    return ids.flatMap((id) => {
      const row = byId.get(id)
      return row ? [row] : []
    })
  }

  /** Every id of the dataset, in id order. */
  allIds(d: DatasetDef): number[] {
    return this.db
      .prepare(`SELECT id FROM ${tableNames(d.id).features} ORDER BY id`)
      .pluck()
      .all() as number[]
  }

  /** Ids (id order) of the rows whose fields pass `keep` (the fallback while a column index is built). */
  scanIds(d: DatasetDef, fields: readonly string[], keep: (values: unknown[]) => boolean): number[] {
    const cols = fields.map((f) => ', ' + fieldColumn(f)).join('')
    const out: number[] = []
    const rows = this.db
      .prepare(`SELECT id${cols} FROM ${tableNames(d.id).features} ORDER BY id`)
      .raw()
      .iterate() as Iterable<unknown[]>
    for (const row of rows) if (keep(row.slice(1))) out.push(Number(row[0]))
    return out
  }

  /** The extents of the dataset's current version (read once per version, then kept). */
  extents(d: DatasetDef, version: number): DatasetExtents {
    const have = this.extentCache.get(d.id)
    if (have && have.version === version) return have
    const time = temporalField(d)
    const { features } = tableNames(d.id)
    const n = Number(this.db.prepare(`SELECT count(*) FROM ${features}`).pluck().get())
    const rows = this.db
      .prepare(
        `SELECT id, minx, miny, maxx, maxy${time ? ', ' + fieldColumn(time) : ''} FROM ${features} ORDER BY id`,
      )
      .raw()
      .iterate() as Iterable<unknown[]>
    const out = extentsFromRows(version, n, time !== undefined, rows)
    this.extentCache.set(d.id, out)
    return out
  }
}
