import type Database from 'better-sqlite3'
import type { DatasetDef } from './catalog'
import { fieldColumn, tableNames } from './datasetTables'

/** How current one dataset is, from the store alone. */
export interface DatasetFreshness {
  id: string
  title: string
  version: number
  count: number
  /** When the dataset was last written (import, seed or feed), ISO; null before the first write. */
  updatedAt: string | null
  /** The newest value of the dataset's first date field (as stored), or null without one. */
  newest: { field: string; value: string } | null
}

const tableExists = (db: Database.Database, name: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined

/** Version, count, last write and newest data time of a dataset (one indexed read plus one max()). */
export function datasetFreshness(db: Database.Database, def: DatasetDef): DatasetFreshness {
  const row = db
    .prepare<[string], { version: number; feature_count: number; updated_at: string | null }>(
      'SELECT version, feature_count, updated_at FROM datasets WHERE id = ?',
    )
    .get(def.id)
  const dateField = def.fields.find((f) => f.type === 'date')?.name
  let newest: DatasetFreshness['newest'] = null
  const table = tableNames(def.id).features
  if (dateField && row && row.feature_count > 0 && tableExists(db, table)) {
    const value = db
      .prepare(`SELECT max(${fieldColumn(dateField)}) FROM ${table}`)
      .pluck()
      .get()
    if (typeof value === 'string' && value !== '') newest = { field: dateField, value }
  }
  return freshnessOf(def, row, newest)
}

/** The `datasets` row of a dataset as its freshness (both stores). */
export function freshnessOf(
  def: DatasetDef,
  row: { version: number; feature_count: number; updated_at: string | null } | undefined,
  newest: DatasetFreshness['newest'],
): DatasetFreshness {
  return {
    id: def.id,
    title: def.title ?? def.id,
    version: row?.version ?? 0,
    count: row?.feature_count ?? 0,
    updatedAt: row?.updated_at ?? null,
    newest,
  }
}
