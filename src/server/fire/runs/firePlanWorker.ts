import { parentPort, workerData } from 'node:worker_threads'
import { openFeatureReader } from '../../store/openStoreFile'
import { readPlan } from './planFireRun'
import type { PlanAnswer, PlanJob } from './readPlanInWorker'

// The planning worker of a consequence run (readPlanInWorker.ts): one job, one answer, then it ends.

/** Rows per read of a line dataset. */
const CHUNK = 2_000

async function plan(job: PlanJob): Promise<PlanAnswer> {
  const { reader, grids, close } = openFeatureReader(job.store, 'emberline-fire-plan')
  try {
    const reading = await readPlan(
      grids,
      async function* (dataset) {
        const d = job.lineDatasets[dataset]
        if (!d) return
        const ids = await reader.allIds(d)
        for (let i = 0; i < ids.length; i += CHUNK) yield await reader.rows(d, ids.slice(i, i + CHUNK))
      },
      job.settings,
      new Date(job.start),
    )
    return { ok: true, reading }
  } finally {
    await close()
  }
}

plan(workerData as PlanJob).then(
  (answer) => parentPort?.postMessage(answer),
  (err: unknown) =>
    parentPort?.postMessage({ ok: false, error: err instanceof Error ? err.message : String(err) }),
)
