// Worker thread of `encodedRowsInWorker`: reads, parses and encodes a file's features and posts
// them in batches (geometry in one transferred buffer) while the main thread inserts.
import { workerData } from 'node:worker_threads'
import { countCells } from './aggregateCells'
import type { DatasetDef } from './catalog'
import { ColumnIndexBuilder } from './columnIndexStore'
import { mercX, mercY } from './geometryCodec'
import { readFeatures } from './readFeatures'
import { encodeFeature, FeatureError } from './writeDataset'
import {
  BATCH_BYTES,
  BATCH_ROWS,
  MAX_AHEAD,
  type WorkerBatch,
  type WorkerInput,
  type WorkerMessage,
  type WorkerSummary,
} from './importProtocol'

const { file, dataset, aggZooms, indexFields, port, signal } = workerData as WorkerInput
const counters = new Int32Array(signal) // [0] batches posted, [1] batches taken by the main thread

function post(message: WorkerMessage, transfer: ArrayBuffer[] = []): void {
  // Wait while the main thread is MAX_AHEAD batches behind (bounded memory).
  while (Atomics.load(counters, 0) - Atomics.load(counters, 1) >= MAX_AHEAD)
    Atomics.wait(counters, 1, Atomics.load(counters, 1), 100)
  port.postMessage(message, transfer)
  Atomics.add(counters, 0, 1)
  Atomics.notify(counters, 0)
}

function run(d: DatasetDef): WorkerSummary {
  const index = new ColumnIndexBuilder(indexFields)
  const indexAt = indexFields.map((f) => d.fields.findIndex((x) => x.name === f.name))
  const picked: unknown[] = new Array<unknown>(indexFields.length)
  const centerX: number[] = []
  const centerY: number[] = []
  let n = 0
  let meta: number[] = []
  let values: (string | number | null)[] = []
  let blobs: Uint8Array[] = []
  let bytes = 0
  /** Geometry bytes and text (UTF-16) bytes of the batch so far. */
  let held = 0
  const flush = (): void => {
    const buffers = {
      meta: new ArrayBuffer(meta.length * 8),
      geometry: new ArrayBuffer(bytes),
      offsets: new ArrayBuffer((blobs.length + 1) * 4),
    }
    const geometry = new Uint8Array(buffers.geometry)
    const offsets = new Int32Array(buffers.offsets)
    let at = 0
    blobs.forEach((b, i) => {
      geometry.set(b, at)
      at += b.byteLength
      offsets[i + 1] = at
    })
    const metaArray = new Float64Array(buffers.meta)
    metaArray.set(meta)
    const batch: WorkerBatch = { meta: metaArray, values, geometry, offsets }
    post({ kind: 'batch', batch }, [buffers.meta, buffers.geometry, buffers.offsets])
    meta = []
    values = []
    blobs = []
    bytes = 0
    held = 0
  }
  for (const feature of readFeatures(file)) {
    const row = encodeFeature(d, feature)
    meta.push(row.minx, row.miny, row.maxx, row.maxy, row.size)
    for (const v of row.values) {
      values.push(v)
      if (typeof v === 'string') held += v.length * 2
    }
    blobs.push(row.blob)
    bytes += row.blob.byteLength
    held += row.blob.byteLength
    n += 1
    for (let j = 0; j < indexAt.length; j++) picked[j] = row.values[indexAt[j] as number]
    index.add(n, picked)
    centerX.push(mercX((row.minx + row.maxx) / 2))
    centerY.push(mercY((row.miny + row.maxy) / 2))
    if (blobs.length === BATCH_ROWS || held >= BATCH_BYTES) flush()
  }
  if (blobs.length > 0) flush()
  const built = index.build()
  return {
    cells: countCells(centerX, centerY, aggZooms),
    ids: built.ids,
    columns: indexFields.flatMap((f) => {
      const col = built.column(f.name)
      return col ? [[f.name, col] as [string, typeof col]] : []
    }),
  }
}

try {
  const summary = run(dataset)
  const buffers = [
    summary.ids.buffer,
    ...summary.cells.flatMap((c) => [c.cx.buffer, c.cy.buffer, c.n.buffer]),
    ...summary.columns.map(([, c]) => (c.kind === 'number' ? c.values.buffer : c.codes.buffer)),
  ].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer)
  post({ kind: 'done', summary }, [...new Set(buffers)])
} catch (e) {
  post({
    kind: 'error',
    message: e instanceof FeatureError ? e.message : e instanceof Error ? e.message : String(e),
  })
}
