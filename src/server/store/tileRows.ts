import type Database from 'better-sqlite3'
import type { DatasetDef } from './catalog'
import { fieldColumn, tableNames } from './datasetTables'

/** A dataset's rows with geometry as the tile index reads them: `[id, size, geom, ...fields]` in id order. */
export interface TileRows {
  version: number
  count: number
  /** The dataset's bbox as recorded at import (identifies the data with version and count). */
  bbox: [number, number, number, number] | null
  rows: Iterable<unknown[]>
}

/**
 * Every row of a dataset for the in-memory tile index (src/server/tiles/tileData.ts). Call inside
 * a read transaction when the version must match the rows (the worker does).
 */
export function tileRows(
  db: Database.Database,
  d: DatasetDef,
  inBox?: readonly [number, number, number, number],
): TileRows {
  const { features } = tableNames(d.id)
  const meta = db
    .prepare('SELECT version, minx, miny, maxx, maxy FROM datasets WHERE id = ?')
    .raw()
    .get(d.id) as [number, number | null, number | null, number | null, number | null] | undefined
  const version = Number(meta?.[0] ?? 0)
  const box = meta?.slice(1) ?? []
  const bbox =
    box.length === 4 && box.every((v) => typeof v === 'number')
      ? (box as [number, number, number, number])
      : null
  // With a box, `count` is the rows in the box (a block of a render), not the dataset's.
  const where = inBox ? ' AND maxx >= ? AND minx <= ? AND maxy >= ? AND miny <= ?' : ''
  const args = inBox ? [inBox[0], inBox[2], inBox[1], inBox[3]] : []
  const count = inBox
    ? Number(
        db
          .prepare(`SELECT count(*) FROM ${features} WHERE minx IS NOT NULL${where}`)
          .pluck()
          .get(...args),
      )
    : Number(db.prepare(`SELECT count(*) FROM ${features}`).pluck().get())
  const cols = d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')
  // Records kept without geometry (NULL bbox) are not drawn; `count` stays every row (the stamp).
  const statement = db
    .prepare(`SELECT id, size, geom${cols} FROM ${features} WHERE minx IS NOT NULL${where} ORDER BY id`)
    .raw()
  // The statement runs when the rows are iterated, not here: an open better-sqlite3 iterator
  // refuses every write on the connection, and a caller may await between getting and reading.
  const rows: Iterable<unknown[]> = {
    [Symbol.iterator]: () => statement.iterate(...args) as Iterator<unknown[]>,
  }
  return { version, count, bbox, rows }
}
