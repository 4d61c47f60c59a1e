import { parentPort, workerData } from 'node:worker_threads'
import { openFeatureReader } from '../store/openStoreFile'
import { writeGeoPackage } from './writeGeoPackage'
import type { GeoPackageJob } from './geoPackageJob'

/** Rows read per batch from the store. */
const BATCH = 10_000

// Worker thread: reads the rows of `ids` (all rows when null) from the store (its file opened
// read-only, or its PostgreSQL database on a connection of the worker's own) and
// writes the GeoPackage, so the server keeps answering while a large export is written.
const job = workerData as GeoPackageJob
const { reader, close } = openFeatureReader(job.source)
try {
  const d = job.layer.dataset
  const ids: ArrayLike<number> = job.ids ?? (await reader.allIds(d))
  async function* batches() {
    for (let i = 0; i < ids.length; i += BATCH)
      yield await reader.rows(
        d,
        Array.from({ length: Math.min(BATCH, ids.length - i) }, (_, k) => ids[i + k] as number),
      )
  }
  const count = await writeGeoPackage(
    job.out,
    { ...job.layer, kind: d.geometry, fields: d.fields },
    batches(),
  )
  parentPort?.postMessage({ ok: true, count })
} catch (error) {
  parentPort?.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error) })
} finally {
  await close()
}
