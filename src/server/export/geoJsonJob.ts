import type { DatasetDef } from '../store/catalog'
import type { FeatureSource } from '../store/openStoreFile'
import { startWorker } from '../tiles/startWorker'

/** What the GeoJSON worker writes: rows `ids` of a dataset (all when null) from the store's file or database. */
export interface GeoJsonJob {
  source: FeatureSource
  ids: number[] | null
  dataset: DatasetDef
}

type WorkerAnswer = { chunk: string; done: boolean } | { error: string }

/**
 * The FeatureCollection text written by a worker thread (src/server/export/geoJsonWorker.ts),
 * chunk by chunk: the next chunk is asked for only when the consumer pulls (a Readable.from over
 * it follows the client's pace). Ending or abandoning the iteration (a client gone) stops the worker.
 */
export async function* geoJsonFromWorker(job: GeoJsonJob): AsyncGenerator<string> {
  const worker = startWorker('../export/geoJsonWorker', job)
  const inbox: WorkerAnswer[] = []
  let failure: Error | null = null
  let wake: (() => void) | null = null
  const notify = () => {
    wake?.()
    wake = null
  }
  worker.on('message', (answer: WorkerAnswer) => {
    inbox.push(answer)
    notify()
  })
  worker.on('error', (error) => {
    failure = error
    notify()
  })
  worker.on('exit', (code) => {
    failure ??= new Error(`GeoJSON export worker exited with code ${code}`)
    notify()
  })
  try {
    for (;;) {
      worker.postMessage('more')
      while (inbox.length === 0 && !failure) await new Promise<void>((resolve) => (wake = resolve))
      const answer = inbox.shift()
      if (!answer) throw failure ?? new Error('GeoJSON export worker stopped')
      if ('error' in answer) throw new Error(`GeoJSON export: ${answer.error}`)
      yield answer.chunk
      if (answer.done) return
    }
  } finally {
    await worker.terminate()
  }
}
