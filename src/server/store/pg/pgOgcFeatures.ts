import type { OgcFeatureStorage } from '../AppStore'
import type { DatasetDef } from '../catalog'
import { fieldColumn, tableNames } from '../datasetTables'
import { extentsFromRows, temporalField, type DatasetExtents, type OgcFeatureRow } from '../ogcFeatures'
import { storedFeature } from '../storedFeature'
import type { PgDatabase } from './pgDatabase'

/** Features by id and per-row extents from PostgreSQL, for the OGC routes and exports (the SQLite reader's answers). */
export class PgOgcFeatureReader implements OgcFeatureStorage {
  private readonly extentCache = new Map<string, DatasetExtents>()

  constructor(private readonly db: PgDatabase) {}

  /** Geometry blobs of `ids` (missing ids are absent from the map). */
  async geometries(d: DatasetDef, ids: readonly number[]): Promise<Map<number, Uint8Array>> {
    const out = new Map<number, Uint8Array>()
    if (ids.length === 0) return out
    const rows = await this.db.rows(
      `SELECT id, geom FROM ${tableNames(d.id).features} WHERE id = ANY($1::integer[])`,
      [ids],
    )
    for (const [id, geom] of rows) out.set(Number(id), geom as Uint8Array)
    return out
  }

  /** Whole rows of `ids`, in the order of `ids`. */
  async rows(d: DatasetDef, ids: readonly number[]): Promise<OgcFeatureRow[]> {
    if (ids.length === 0) return []
    const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
    const rows = await this.db.rows(
      `SELECT id, geom${cols} FROM ${tableNames(d.id).features} WHERE id = ANY($1::integer[])`,
      [ids],
    )
    const byId = new Map<number, OgcFeatureRow>()
    for (const row of rows) byId.set(Number(row[0]), storedFeature(d, row))
    return ids.flatMap((id) => {
      const row = byId.get(id)
      return row ? [row] : []
    })
  }

  /** Every id of the dataset, in id order. */
  async allIds(d: DatasetDef): Promise<number[]> {
    return (await this.db.rows(`SELECT id FROM ${tableNames(d.id).features} ORDER BY id`)).map((r) =>
      Number(r[0]),
    )
  }

  /** Ids (id order) of the rows whose fields pass `keep`. */
  async scanIds(
    d: DatasetDef,
    fields: readonly string[],
    keep: (values: unknown[]) => boolean,
  ): Promise<number[]> {
    const cols = fields.map((f) => ', ' + fieldColumn(f)).join('')
    const rows = await this.db.rows(`SELECT id${cols} FROM ${tableNames(d.id).features} ORDER BY id`)
    return rows.filter((row) => keep(row.slice(1))).map((row) => Number(row[0]))
  }

  /** The extents of the dataset's current version (read once per version, then kept). */
  async extents(d: DatasetDef, version: number): Promise<DatasetExtents> {
    const have = this.extentCache.get(d.id)
    if (have && have.version === version) return have
    const time = temporalField(d)
    const rows = await this.db.rows(
      `SELECT id, minx, miny, maxx, maxy${time ? ', ' + fieldColumn(time) : ''} FROM ${tableNames(d.id).features} ORDER BY id`,
    )
    const out = extentsFromRows(version, rows.length, time !== undefined, rows)
    this.extentCache.set(d.id, out)
    return out
  }
}
