import type { MessagePort } from 'node:worker_threads'
import type { DatasetDef } from './catalog'

/** Rows per message from the import worker, and how many messages it may run ahead. */
export const BATCH_ROWS = 2000
export const MAX_AHEAD = 16

export interface WorkerInput {
  file: string
  dataset: DatasetDef
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

export type WorkerMessage =
  { kind: 'batch'; batch: WorkerBatch } | { kind: 'done' } | { kind: 'error'; message: string }
