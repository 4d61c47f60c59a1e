import type { DatasetDef } from '../catalog'
import { freshnessOf, type DatasetFreshness } from '../datasetFreshness'
import { fieldColumn, tableNames } from '../datasetTables'
import type { PgDatabase } from './pgDatabase'

/** Version, count, last write and newest data time of a dataset (the SQLite store's datasetFreshness). */
export async function pgDatasetFreshness(db: PgDatabase, def: DatasetDef): Promise<DatasetFreshness> {
  const row = await db.one<{ version: number; feature_count: number; updated_at: string | null }>(
    'SELECT version, feature_count, updated_at FROM datasets WHERE id = $1',
    [def.id],
  )
  const dateField = def.fields.find((f) => f.type === 'date')?.name
  let newest: DatasetFreshness['newest'] = null
  if (dateField && row && row.feature_count > 0) {
    // Byte order, as SQLite's max() of text (not the database's collation).
    const got = await db.one<{ v: string | null }>(
      `SELECT max(${fieldColumn(dateField)} COLLATE "C") AS v FROM ${tableNames(def.id).features}`,
    )
    if (typeof got?.v === 'string' && got.v !== '') newest = { field: dateField, value: got.v }
  }
  return freshnessOf(def, row, newest)
}
