import type { DatasetDef } from '../store/catalog'
import { startWorker } from '../tiles/startWorker'

/** What the GeoPackage worker writes: rows `ids` of a dataset (all when null) from the store file into `out`. */
export interface GeoPackageJob {
  storeFile: string
  out: string
  ids: number[] | null
  layer: { name: string; title: string; description: string; dataset: DatasetDef }
}

type WorkerAnswer = { ok: true; count: number } | { ok: false; message: string }

/** Writes a GeoPackage in a worker thread (src/server/export/geoPackageWorker.ts); resolves to the feature count. */
export function writeGeoPackageInWorker(job: GeoPackageJob): Promise<number> {
  return new Promise((resolve, reject) => {
    const worker = startWorker('../export/geoPackageWorker', job)
    let answered = false
    worker.once('message', (answer: WorkerAnswer) => {
      answered = true
      if (answer.ok) resolve(answer.count)
      else reject(new Error(`GeoPackage export: ${answer.message}`))
    })
    worker.once('error', (error) => {
      answered = true
      reject(error)
    })
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`GeoPackage export worker exited with code ${code}`))
    })
  })
}
