// Worker thread: builds one dataset's TileData from the store file (read-only) and posts it back
// with its buffers transferred, so the server's event loop never runs the build.
import { parentPort, workerData } from 'node:worker_threads'
import Database from 'better-sqlite3'
import type { DatasetDef } from '../store/catalog'
import { tileRows } from '../store/tileRows'
import { buildTileData, tileDataTransfer } from './tileData'

const { file, dataset } = workerData as { file: string; dataset: DatasetDef }
const db = new Database(file, { readonly: true, fileMustExist: true })
try {
  // One read transaction: the version read matches the rows read.
  const data = db.transaction(() => buildTileData(dataset, tileRows(db, dataset)))()
  parentPort?.postMessage(data, tileDataTransfer(data))
} finally {
  db.close()
}
