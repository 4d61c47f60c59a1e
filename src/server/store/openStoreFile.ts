import path from 'node:path'
import Database from 'better-sqlite3'
import type { AppStore, GridStorage, OgcFeatureStorage } from './AppStore'
import type { Catalog, DatasetDef } from './catalog'
import { GridStore } from './gridStore'
import { migrate } from './migrate'
import { OgcFeatureReader } from './ogcFeatures'
import { pgDatabase } from './pg/pgDatabase'
import { PgGridStore } from './pg/pgGridStore'
import { PgOgcFeatureReader } from './pg/pgOgcFeatures'
import { PgStore } from './pg/pgStore'
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

/**
 * Where a worker thread reads a store's features: its SQLite file (read-only), or its PostgreSQL
 * database (a connection of the worker's own on the same DATABASE_URL).
 */
export type FeatureSource = { file: string } | { pgUrl: string }

/** The FeatureSource of a store, or null when a worker cannot reach it (an in-memory store). */
export function featureSourceOf(store: AppStore): FeatureSource | null {
  if (store.location) return { file: store.location }
  if (store instanceof PgStore && store.url) return { pgUrl: store.url }
  return null
}

/**
 * A read-only feature reader, and the store's grids, over a store's file or database (an export's or
 * a fire run's worker thread). `applicationName` names the PostgreSQL connection.
 */
export function openFeatureReader(
  source: FeatureSource,
  applicationName = 'emberline-export',
): {
  reader: OgcFeatureStorage
  grids: Pick<GridStorage, 'grid' | 'list'>
  close(): Promise<void>
} {
  if ('file' in source) {
    const db = new Database(source.file, { readonly: true, fileMustExist: true })
    return {
      reader: new OgcFeatureReader(db),
      grids: new GridStore(db),
      close: async () => {
        db.close()
      },
    }
  }
  // One connection: the worker asks one query at a time.
  const db = pgDatabase({ url: source.pgUrl, max: 1, applicationName })
  return { reader: new PgOgcFeatureReader(db), grids: new PgGridStore(db), close: () => db.close() }
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
