import type Database from 'better-sqlite3'
import type { DatasetDef } from './catalog'
import { fieldColumn, tableNames } from './datasetTables'

/** A dataset's rows as the tile index reads them: `[id, size, geom, ...fields]` in id order. */
export interface TileRows {
  version: number
  count: number
  rows: Iterable<unknown[]>
}

/**
 * Every row of a dataset for the in-memory tile index (src/server/tiles/tileData.ts). Call inside
 * a read transaction when the version must match the rows (the worker does).
 */
export function tileRows(db: Database.Database, d: DatasetDef): TileRows {
  const { features } = tableNames(d.id)
  const version = Number(db.prepare('SELECT version FROM datasets WHERE id = ?').pluck().get(d.id) ?? 0)
  const count = Number(db.prepare(`SELECT count(*) FROM ${features}`).pluck().get())
  const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
  const rows = db
    .prepare(`SELECT id, size, geom${cols} FROM ${features} ORDER BY id`)
    .raw()
    .iterate() as Iterable<unknown[]>
  return { version, count, rows }
}
