// The outputs worker of a consequence run (writeOutputsInWorker.ts): opens the store on a connection
// of its own, writes the run's outputs in one transaction, answers the per-circuit summaries, ends.
import { parentPort, workerData } from 'node:worker_threads'
import type { AppStore } from '../../store/AppStore'
import { openStoreFile } from '../../store/openStoreFile'
import { openPgStore } from '../../store/pg/pgStore'
import { lowerThreadPriority } from './threadPriority'
import { writeOutputsThrough, type OutputsAnswer, type OutputsJob } from './writeOutputsInWorker'

async function write(job: OutputsJob): Promise<OutputsAnswer> {
  lowerThreadPriority()
  const store: AppStore =
    'file' in job.store
      ? openStoreFile(job.store.file, job.catalog)
      : await openPgStore(job.store.pgUrl, job.catalog, { max: 2, applicationName: 'emberline-fire-outputs' })
  try {
    const run = await store.fireRuns.run(job.runId)
    if (!run) throw new Error(`run ${job.runId} is not in the store`)
    const summaries = await writeOutputsThrough(
      store,
      run,
      job.outputs,
      new Date(job.computedAt),
      job.timeZone,
    )
    return { ok: true, summaries }
  } finally {
    await store.close()
  }
}

write(workerData as OutputsJob).then(
  (answer) => parentPort?.postMessage(answer),
  (err: unknown) =>
    parentPort?.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
)
