import type { Catalog } from '../store/catalog'
import type { FeatureSource } from '../store/openStoreFile'
import type { Worker } from 'node:worker_threads'
import { startWorker } from '../tiles/startWorker'

/**
 * The job worker's old generation: V8 collects a streamed body's garbage (parsed lines, encoded
 * rows) at this size instead of letting the heap grow with the body, so a 200 MB body moves the
 * server's resident set by less than 200 MB (tests/api/ingest-scale.test.ts). Geometry and tile
 * data live in ArrayBuffers outside it.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 8 }

/** What the dataset import worker does: the CLI's import of `file` into the store `source`. */
export interface DatasetImportInput {
  source: FeatureSource
  catalog: Catalog
  dataset: string
  /** A .geojson, .ndjson or .csv file (the CLI's readers pick by its extension). */
  file: string
  mode: 'replace' | 'merge'
}

export type DatasetImportMessage =
  | { kind: 'progress'; done: number }
  | { kind: 'done'; kept: number; replacedKeys: number | null; tiles: string | null }
  | { kind: 'error'; message: string }

export interface DatasetImportResult {
  kept: number
  /** Merge: how many distinct keys the body carried (rows with those keys were replaced). */
  replacedKeys: number | null
  tiles: string | null
}

/**
 * Runs the import CLI's path in a worker thread (datasetImportWorker.ts): the body parsed (large
 * ones by the CLI's import worker beside the inserts), rows staged and swapped in by the store
 * (SQLite: the store file through a connection of its own; PostgreSQL: COPY and a notification),
 * then the tile data saved as after `npm run import`. The server's own thread only relays
 * progress. One worker is kept between jobs (its start-up is paid once); an abort stops it (its
 * staging is dropped by the next replacement; the live data never changed).
 */
export class DatasetImporter {
  private idle: Worker | null = null
  private closed = false

  run(
    input: DatasetImportInput,
    onProgress: (done: number) => void,
    signal: AbortSignal,
  ): Promise<DatasetImportResult> {
    return new Promise((resolve, reject) => {
      const worker = this.idle ?? startWorker('../ingest/datasetImportWorker', null, WORKER_LIMITS)
      this.idle = null
      worker.ref()
      let settled = false
      const settle = (fn: () => void, reuse: boolean): void => {
        if (settled) return
        settled = true
        signal.removeEventListener('abort', abort)
        // Only this run's listeners: the Worker's own (newListener, …) deliver its messages.
        worker.off('message', onMessage)
        worker.off('error', onError)
        worker.off('exit', onExit)
        if (reuse && !this.closed && !this.idle) {
          worker.unref()
          this.idle = worker
        } else void worker.terminate()
        fn()
      }
      const abort = (): void =>
        settle(() => reject(new Error('the import was stopped (the server is closing)')), false)
      const onMessage = (m: DatasetImportMessage): void => {
        if (m.kind === 'progress') onProgress(m.done)
        else if (m.kind === 'done')
          settle(() => resolve({ kept: m.kept, replacedKeys: m.replacedKeys, tiles: m.tiles }), true)
        else settle(() => reject(new Error(m.message)), true)
      }
      const onError = (e: Error): void => settle(() => reject(e), false)
      const onExit = (code: number): void =>
        settle(() => reject(new Error(`the import worker exited (${code})`)), false)
      worker.on('message', onMessage)
      worker.once('error', onError)
      worker.once('exit', onExit)
      if (signal.aborted) return abort()
      signal.addEventListener('abort', abort, { once: true })
      worker.postMessage(input)
    })
  }

  close(): void {
    this.closed = true
    void this.idle?.terminate()
    this.idle = null
  }
}
