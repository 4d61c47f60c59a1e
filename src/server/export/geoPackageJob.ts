import type { DatasetDef } from '../store/catalog'
import type { FeatureSource } from '../store/openStoreFile'
import { startWorker } from '../tiles/startWorker'

/**
 * What the GeoPackage worker writes: rows `ids` of a dataset (all when null) from the store's
 * file or database into `out`.
 */
export interface GeoPackageJob {
  source: FeatureSource
  out: string
  ids: number[] | null
  layer: { name: string; title: string; description: string; dataset: DatasetDef }
}

type WorkerAnswer = { ok: true; count: number } | { ok: false; message: string }

/**
 * Writes a GeoPackage in a worker thread (src/server/export/geoPackageWorker.ts); resolves to the
 * feature count. An abort (the client gone) stops the worker and rejects.
 */
export function writeGeoPackageInWorker(job: GeoPackageJob, signal?: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = startWorker('../export/geoPackageWorker', job)
    let answered = false
    const abort = () => {
      if (answered) return
      answered = true
      reject(new Error('GeoPackage export: abandoned'))
      void worker.terminate()
    }
    if (signal?.aborted) abort()
    signal?.addEventListener('abort', abort, { once: true })
    worker.once('exit', () => signal?.removeEventListener('abort', abort))
    worker.once('message', (answer: WorkerAnswer) => {
      if (answered) return
      answered = true
      if (answer.ok) resolve(answer.count)
      else reject(new Error(`GeoPackage export: ${answer.message}`))
    })
    worker.once('error', (error) => {
      if (answered) return
      answered = true
      reject(error)
    })
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`GeoPackage export worker exited with code ${code}`))
    })
  })
}
