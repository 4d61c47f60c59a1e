import { parentPort, workerData } from 'node:worker_threads'
import { featureJson } from '../ogc/featureJson'
import { openFeatureReader } from '../store/openStoreFile'
import type { GeoJsonJob } from './geoJsonJob'

/** Features per chunk handed to the server thread. */
const BATCH = 2_000

// Worker thread: reads the rows of `ids` (all rows when null) from the store (its file opened
// read-only, or its PostgreSQL database on a connection of the worker's own) and
// writes the FeatureCollection as text, one chunk per 'more' from the server thread (which asks
// only when the client has taken the previous one: backpressure, bounded memory).
const job = workerData as GeoJsonJob
const port = parentPort
if (!port) throw new Error('geoJsonWorker runs as a worker thread')
let credits = 0
let wake: (() => void) | null = null
port.on('message', () => {
  credits++
  wake?.()
  wake = null
})
async function send(chunk: string, done = false): Promise<void> {
  while (credits === 0) await new Promise<void>((resolve) => (wake = resolve))
  credits--
  port?.postMessage({ chunk, done })
}

const { reader, close } = openFeatureReader(job.source)
try {
  const d = job.dataset
  const ids: ArrayLike<number> = job.ids ?? (await reader.allIds(d))
  await send(`{"type":"FeatureCollection","name":${JSON.stringify(d.id)},"features":[`)
  for (let i = 0; i < ids.length; i += BATCH) {
    const slice = Array.from({ length: Math.min(BATCH, ids.length - i) }, (_, k) => ids[i + k] as number)
    const rows = await reader.rows(d, slice)
    const text = JSON.stringify(rows.map((r) => featureJson(r, d.geometry))).slice(1, -1)
    if (text) await send(i === 0 ? text : `,${text}`)
  }
  await send(']}\n', true)
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) })
} finally {
  await close()
}
