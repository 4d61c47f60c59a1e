// Worker thread: renders the tile archives of one dataset's small sources from the store file
// (read-only) and writes them next to it (tile-index/<source>.tiles), off the server's event loop.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import type { Catalog } from '../store/catalog'
import { SqliteStore } from '../store/sqliteStore'
import type { TileLimits } from './buildTile'
import { saveTileArchives } from './renderArchive'
import { buildTileData, spatialIndex } from './tileData'

const { file, catalog, datasetId, limits } = workerData as {
  file: string
  catalog: Catalog
  datasetId: string
  limits: TileLimits
}
const db = new Database(file, { readonly: true, fileMustExist: true })
try {
  const store = new SqliteStore(db, catalog)
  const dataset = store.dataset(datasetId)
  let archived = 0
  if (dataset) {
    const data = db.transaction(() => buildTileData(dataset, store.tileRows(datasetId)))()
    archived = await saveTileArchives(store, datasetId, { data, index: spatialIndex(data) }, limits)
  }
  parentPort?.postMessage({ archived })
} finally {
  db.close()
}
