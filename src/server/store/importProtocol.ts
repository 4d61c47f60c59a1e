import type { MessagePort } from 'node:worker_threads'
import type { ZoomCells } from './aggregateCells'
import type { DatasetDef, FieldDef } from './catalog'
import type { Column } from './columnIndex'

/**
 * Rows per message from the import worker, and how many messages it may run ahead. A message
 * also ends at BATCH_BYTES of geometry and text, so features with long text properties (20 KB
 * each) cannot put a whole file in flight: at most MAX_AHEAD × BATCH_BYTES wait.
 */
export const BATCH_ROWS = 2000
export const BATCH_BYTES = 4 * 1024 * 1024
export const MAX_AHEAD = 16

export interface WorkerInput {
  file: string
  dataset: DatasetDef
  /** What the worker also computes from the rows: aggregate cells and the records column index. */
  aggZooms: readonly number[]
  indexFields: readonly FieldDef[]
  port: MessagePort
  /** Two Int32 counters: batches posted by the worker, batches taken by the main thread. */
  signal: SharedArrayBuffer
}

/** Encoded rows: per row minx, miny, maxx, maxy, size in `meta`; values row-major; geometry blobs concatenated. */
export interface WorkerBatch {
  meta: Float64Array
  values: (string | number | null)[]
  geometry: Uint8Array
  offsets: Int32Array
}

/** Sent with 'done': the cells and the column index (as arrays; rebuilt into a ColumnIndex). */
export interface WorkerSummary {
  cells: ZoomCells[]
  ids: Int32Array
  columns: [string, Column][]
}

export type WorkerMessage =
  | { kind: 'batch'; batch: WorkerBatch }
  | { kind: 'done'; summary: WorkerSummary }
  | { kind: 'error'; message: string }
