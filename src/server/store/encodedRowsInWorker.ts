import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads'
import type { DatasetDef, FieldDef } from './catalog'
import { ColumnIndex } from './columnIndex'
import type { WorkerInput, WorkerMessage, WorkerSummary } from './importProtocol'
import type { EncodedRow, ReplaceOptions } from './writeDataset'

const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './importWorker.ts' : './importWorker.js',
  import.meta.url,
)

/** Gives up when the worker posts nothing for this long (it died without a word). */
const STALL_MS = 120_000

function startWorker(workerData: WorkerInput): Worker {
  const transferList = [workerData.port]
  if (!WORKER_URL.pathname.endsWith('.ts')) return new Worker(WORKER_URL, { workerData, transferList })
  // TypeScript sources load through tsx's ESM register API (as src/server/tiles does).
  const api = createRequire(import.meta.url)
    .resolve('tsx/esm/api')
    .replace(/\.cjs$/, '.mjs')
  const boot = `import(${JSON.stringify(pathToFileURL(api).href)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(WORKER_URL.href)}) })`
  return new Worker(boot, { eval: true, workerData, transferList })
}

/** Rows from the worker, and (once they are all taken) what it computed from them. */
export interface WorkerRows {
  rows: Iterable<EncodedRow>
  /** For `ReplaceOptions.precomputed`: throws if the rows were not all taken. */
  precomputed: NonNullable<ReplaceOptions['precomputed']>
}

/**
 * The features of `file` read, parsed and encoded by a worker thread, as a synchronous
 * iterable (the main thread blocks only when the worker is behind), so the single SQLite
 * transaction of `replaceDatasetRows` stays synchronous while parsing runs on another core.
 * The worker also computes the aggregate cells and the records column index. A bad feature
 * throws from the iteration with the worker's message (which names the line).
 */
export function encodedRowsInWorker(
  file: string,
  dataset: DatasetDef,
  extras: { aggZooms: readonly number[]; indexFields: readonly FieldDef[] } = {
    aggZooms: [],
    indexFields: [],
  },
): WorkerRows {
  let summary: WorkerSummary | null = null
  return {
    rows: workerRows(file, dataset, extras, (s) => (summary = s)),
    precomputed: () => {
      const s = summary as WorkerSummary | null
      if (!s) throw new Error('import worker: rows not all read')
      return { cells: s.cells, index: new ColumnIndex(s.ids, new Map(s.columns)) }
    },
  }
}

function* workerRows(
  file: string,
  dataset: DatasetDef,
  extras: { aggZooms: readonly number[]; indexFields: readonly FieldDef[] },
  done: (summary: WorkerSummary) => void,
): Generator<EncodedRow> {
  const signal = new SharedArrayBuffer(8)
  const counters = new Int32Array(signal)
  const { port1, port2 } = new MessageChannel()
  const worker = startWorker({ file, dataset, ...extras, port: port2, signal })
  let taken = 0
  try {
    for (;;) {
      const received = receiveMessageOnPort(port1)
      if (!received) {
        if (Atomics.wait(counters, 0, taken, STALL_MS) === 'timed-out' && Atomics.load(counters, 0) === taken)
          throw new Error(`import worker stopped answering (${file})`)
        continue
      }
      taken += 1
      Atomics.store(counters, 1, taken)
      Atomics.notify(counters, 1)
      const message = received.message as WorkerMessage
      if (message.kind === 'error') throw new Error(message.message)
      if (message.kind === 'done') {
        done(message.summary)
        return
      }
      const { meta, values, geometry, offsets } = message.batch
      const width = dataset.fields.length
      for (let i = 0; i < offsets.length - 1; i++) {
        yield {
          minx: meta[i * 5] as number,
          miny: meta[i * 5 + 1] as number,
          maxx: meta[i * 5 + 2] as number,
          maxy: meta[i * 5 + 3] as number,
          size: meta[i * 5 + 4] as number,
          values: values.slice(i * width, (i + 1) * width),
          blob: Buffer.from(
            geometry.buffer,
            geometry.byteOffset + (offsets[i] as number),
            (offsets[i + 1] as number) - (offsets[i] as number),
          ),
        }
      }
    }
  } finally {
    port1.close()
    void worker.terminate()
  }
}
