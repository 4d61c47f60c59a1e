import path from 'node:path'
import Database from 'better-sqlite3'
import type { GridStorage, OgcFeatureStorage } from './AppStore'
import type { Catalog, DatasetDef } from './catalog'
import { GridStore } from './gridStore'
import { migrate } from './migrate'
import { OgcFeatureReader } from './ogcFeatures'
import { SqliteStore, STORE_FILE } from './sqliteStore'
import { replaceDatasetRows, type EncodedRow, type ReplaceOptions } from './writeDataset'

/**
 * The store file opened by a worker thread (its own connection, no accounts database): a feed
 * import writes through it; `readonly` for readers. Close it with `store.close()`.
 */
export function openStoreFile(
  file: string,
  catalog: Catalog,
  opts: { readonly?: boolean } = {},
): SqliteStore {
  const readonly = opts.readonly ?? false
  const db = new Database(file, { readonly, fileMustExist: true })
  if (!readonly) {
    db.pragma('busy_timeout = 5000')
    db.pragma('synchronous = NORMAL')
  }
  return new SqliteStore(db, catalog)
}

/** A read-only feature reader over the store file (a GeoPackage export's worker thread). */
export function openFeatureReader(file: string): { reader: OgcFeatureStorage; close(): void } {
  const db = new Database(file, { readonly: true, fileMustExist: true })
  return { reader: new OgcFeatureReader(db), close: () => db.close() }
}

/** The grids of the store in `dataDir` (migrated), for the import-grid CLI beside a running server. */
export function openGridStorage(dataDir: string): { grids: GridStorage; close(): void } {
  const db = new Database(path.join(dataDir, STORE_FILE))
  db.pragma('busy_timeout = 5000')
  migrate(db)
  return { grids: new GridStore(db), close: () => db.close() }
}

/** Replaces a dataset with rows encoded off the main thread (the import CLI's worker). */
export function importEncodedRows(
  store: SqliteStore,
  d: DatasetDef,
  rows: Iterable<EncodedRow>,
  options: ReplaceOptions,
): number {
  const n = replaceDatasetRows(store.db, d, rows, options)
  store.datasetReplaced(d.id)
  return n
}
