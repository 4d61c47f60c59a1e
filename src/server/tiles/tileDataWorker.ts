// Worker thread: builds one dataset's TileData from the store file (read-only) and posts it back
// with its buffers transferred, so the server's event loop never runs the build.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import type { DatasetDef } from '../store/catalog'
import { tileRows } from '../store/tileRows'
import { buildTileData, tileDataTransfer } from './tileData'
import { writeTileData } from './tileDataFile'

const { file, dataset, saveTo } = workerData as { file: string; dataset: DatasetDef; saveTo: string | null }
const db = new Database(file, { readonly: true, fileMustExist: true })
try {
  // One read transaction: the version read matches the rows read.
  const { data, stamp } = db.transaction(() => {
    const rows = tileRows(db, dataset)
    return {
      data: buildTileData(dataset, rows),
      stamp: { version: rows.version, count: rows.count, bbox: rows.bbox },
    }
  })()
  if (saveTo) {
    try {
      writeTileData(saveTo, data, stamp)
    } catch {
      // Not kept: the next start builds again.
    }
  }
  parentPort?.postMessage(data, tileDataTransfer(data))
} finally {
  db.close()
}
