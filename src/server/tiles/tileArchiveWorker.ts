// Worker thread: renders the tile archives of one dataset's sources from its tile data (the server's
// own, shared; or built from the store file, read-only) and writes them next to the store file
// (tile-index/<source>.tiles), off the server's event loop.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import type { Catalog } from '../store/catalog'
import { SqliteStore } from '../store/sqliteStore'
import type { TileLimits } from './buildTile'
import { saveTileArchives } from './renderArchive'
import { buildTileData, spatialIndex, type TileData } from './tileData'

const { file, catalog, datasetId, limits, data } = workerData as {
  file: string
  catalog: Catalog
  datasetId: string
  limits: TileLimits
  /** The server's tile data of the version stored now, in shared memory; null: build it here. */
  data: TileData | null
}
const db = new Database(file, { readonly: true, fileMustExist: true })
try {
  const store = new SqliteStore(db, catalog)
  const dataset = store.dataset(datasetId)
  let archived = 0
  if (dataset) {
    const tiles =
      data && data.version === store.info(datasetId).version
        ? data
        : db.transaction(() => buildTileData(dataset, store.tileRows(datasetId)))()
    archived = await saveTileArchives(store, datasetId, { data: tiles, index: spatialIndex(tiles) }, limits)
  }
  parentPort?.postMessage({ archived })
} finally {
  db.close()
}
