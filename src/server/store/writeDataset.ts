import type Database from 'better-sqlite3'
import type { Geometry } from 'geojson'
import type { DatasetDef, FieldDef } from './catalog'
import { fieldColumn, recreateDatasetTables, tableNames } from './datasetTables'
import { encodeGeometry, mercX, mercY, toParts } from './geometryCodec'

/** One feature to store: GeoJSON geometry (lon/lat) + attributes; `line` names it in errors. */
export interface FeatureInput {
  geometry: Geometry | null | undefined
  properties: Record<string, unknown> | null | undefined
  line?: number
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

/** Cells per tile side of the aggregated zooms is 2^CELL_BITS (64 → 8 px cells on 512 px tiles). */
export const CELL_BITS = 6

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

/**
 * Replaces all features of a dataset inside one transaction: on any error nothing changes
 * and the previous data stays. Also rebuilds the aggregate cells for `aggZooms`.
 */
export function replaceDataset(
  db: Database.Database,
  d: DatasetDef,
  features: Iterable<FeatureInput>,
  aggZooms: readonly number[],
  onProgress?: ProgressFn,
): number {
  const { features: table, rtree } = tableNames(d.id)
  const cols = d.fields.map((f) => fieldColumn(f.name))
  const run = db.transaction(() => {
    recreateDatasetTables(db, d)
    const insert = db.prepare(
      `INSERT INTO ${table} (id, minx, miny, maxx, maxy, size, geom${cols.map((c) => ', ' + c).join('')})
       VALUES (?, ?, ?, ?, ?, ?, ?${cols.map(() => ', ?').join('')})`,
    )
    const insertBox = db.prepare(
      `INSERT INTO ${rtree} (id, minx, maxx, miny, maxy, size) VALUES (?, ?, ?, ?, ?, ?)`,
    )
    const cells = aggZooms.map(() => new Map<number, number>())
    let n = 0
    const box = [Infinity, Infinity, -Infinity, -Infinity]
    for (const feature of features) {
      let values: (string | number | null)[]
      let g: ReturnType<typeof encodeGeometry>
      try {
        const props = feature.properties ?? {}
        values = d.fields.map((f) => coerce(f, props[f.name]))
        g = encodeGeometry(toParts(feature.geometry, d.geometry), d.geometry)
      } catch (e) {
        throw new FeatureError(feature.line, e instanceof Error ? e.message : String(e))
      }
      n += 1
      insert.run(n, g.minx, g.miny, g.maxx, g.maxy, g.size, g.blob, ...values)
      insertBox.run(n, g.minx, g.maxx, g.miny, g.maxy, d.geometry === 'point' ? 1 : g.size)
      box[0] = Math.min(box[0] as number, g.minx)
      box[1] = Math.min(box[1] as number, g.miny)
      box[2] = Math.max(box[2] as number, g.maxx)
      box[3] = Math.max(box[3] as number, g.maxy)
      const mx = mercX((g.minx + g.maxx) / 2)
      const my = mercY((g.miny + g.maxy) / 2)
      aggZooms.forEach((z, i) => {
        const scale = 2 ** (z + CELL_BITS)
        const key = Math.floor(mx * scale) * scale + Math.floor(my * scale)
        const m = cells[i] as Map<number, number>
        m.set(key, (m.get(key) ?? 0) + 1)
      })
      if (onProgress && n % 10000 === 0) onProgress(n)
    }
    writeCells(db, d.id, aggZooms, cells)
    db.prepare(
      `UPDATE datasets SET version = version + 1, feature_count = ?, minx = ?, miny = ?, maxx = ?, maxy = ?,
       agg_levels = ?, updated_at = ? WHERE id = ?`,
    ).run(
      n,
      n ? box[0] : null,
      n ? box[1] : null,
      n ? box[2] : null,
      n ? box[3] : null,
      aggZooms.join(','),
      new Date().toISOString(),
      d.id,
    )
    onProgress?.(n)
    return n
  })
  return run()
}

function writeCells(
  db: Database.Database,
  id: string,
  zooms: readonly number[],
  cells: Map<number, number>[],
): void {
  db.prepare('DELETE FROM agg_cells WHERE dataset = ?').run(id)
  const put = db.prepare('INSERT INTO agg_cells (dataset, level, cx, cy, n) VALUES (?, ?, ?, ?, ?)')
  zooms.forEach((z, i) => {
    const scale = 2 ** (z + CELL_BITS)
    for (const [key, count] of cells[i] ?? []) {
      const cx = Math.floor(key / scale)
      put.run(id, z + CELL_BITS, cx, key - cx * scale, count)
    }
  })
}

/** Rebuilds only the aggregate cells (when the configured aggregate zooms changed). */
export function rebuildCells(db: Database.Database, d: DatasetDef, aggZooms: readonly number[]): void {
  const { features: table } = tableNames(d.id)
  db.transaction(() => {
    const cells = aggZooms.map(() => new Map<number, number>())
    for (const row of db.prepare(`SELECT minx, miny, maxx, maxy FROM ${table}`).raw().iterate()) {
      const [minx, miny, maxx, maxy] = row as number[]
      const mx = mercX(((minx as number) + (maxx as number)) / 2)
      const my = mercY(((miny as number) + (maxy as number)) / 2)
      aggZooms.forEach((z, i) => {
        const scale = 2 ** (z + CELL_BITS)
        const key = Math.floor(mx * scale) * scale + Math.floor(my * scale)
        const m = cells[i] as Map<number, number>
        m.set(key, (m.get(key) ?? 0) + 1)
      })
    }
    writeCells(db, d.id, aggZooms, cells)
    db.prepare('UPDATE datasets SET agg_levels = ? WHERE id = ?').run(aggZooms.join(','), d.id)
  })()
}
