import Database from 'better-sqlite3'
import type { DatasetDef } from './catalog'
import { fieldColumn, tableNames } from './datasetTables'
import type { PgDatabase } from './pg/pgDatabase'
import type { EncodedRow } from './writeDataset'

// A merge (ingestion API, docs/ingest.md) is a replacement whose rows are the incoming ones
// followed by the live rows whose key the incoming rows do not carry: the same staging and swap.

/** The key of an encoded row as merges compare it (null: no key, never matched). */
export function keyOf(values: readonly (string | number | null)[], at: number): string | null {
  const v = values[at]
  return v === null || v === undefined ? null : String(v)
}

function selectSql(d: DatasetDef): string {
  const cols = d.fields.map((f) => `, ${fieldColumn(f.name)}`).join('')
  return `SELECT minx, miny, maxx, maxy, size, geom${cols} FROM ${tableNames(d.id).features}`
}

function rowOf(r: unknown[], width: number): EncodedRow {
  const num = (v: unknown): number => (v === null || v === undefined ? NaN : Number(v))
  const blob = r[5] as Uint8Array
  return {
    minx: num(r[0]),
    miny: num(r[1]),
    maxx: num(r[2]),
    maxy: num(r[3]),
    size: num(r[4]),
    blob,
    values: r.slice(6, 6 + width) as (string | number | null)[],
  }
}

/**
 * The live rows of `d` in the SQLite store file whose key (`keyAt`: the key field's index) is not
 * in `replaced`, in id order, read through a connection of their own (the importing connection is
 * busy filling the staging table). Called once the incoming rows are all read.
 */
export function* sqliteRowsExcept(
  file: string,
  d: DatasetDef,
  keyAt: number,
  replaced: ReadonlySet<string>,
): Generator<EncodedRow> {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const stmt = db.prepare(`${selectSql(d)} ORDER BY id`).raw()
    for (const r of stmt.iterate() as IterableIterator<unknown[]>) {
      const row = rowOf(r, d.fields.length)
      const key = keyOf(row.values, keyAt)
      if (key === null || !replaced.has(key)) yield row
    }
  } finally {
    db.close()
  }
}

/** As sqliteRowsExcept, from PostgreSQL (`db`: a pool other than the importing transaction's). */
export async function* pgRowsExcept(
  db: PgDatabase,
  d: DatasetDef,
  keyAt: number,
  replaced: ReadonlySet<string>,
): AsyncGenerator<EncodedRow> {
  const page = 5000
  let after = 0
  for (;;) {
    const rows = await db.rows(
      `${selectSql(d).replace('SELECT ', 'SELECT id, ')} WHERE id > $1 ORDER BY id LIMIT ${page}`,
      [after],
    )
    for (const r of rows) {
      after = Number(r[0])
      const row = rowOf(r.slice(1), d.fields.length)
      const key = keyOf(row.values, keyAt)
      if (key === null || !replaced.has(key)) yield row
    }
    if (rows.length < page) return
  }
}
