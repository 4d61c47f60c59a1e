// A consequence run's outputs written off the server thread (docs/fire.md "Consequence run"): reading
// every ignition's result (266,144 on the demo), summarising them per circuit, rewriting the output
// datasets and building their raster bands held the event loop for seconds (2.8 s on the demo at
// 50,000 buildings, one synchronous SQLite transaction). A short-lived worker thread
// (fireOutputsWorker.ts) now opens the store on a connection of its own and does all of it in one
// transaction there: readers see the previous outputs until it commits, then the new ones.
import { startWorker } from '../../tiles/startWorker'
import type { AppStore } from '../../store/AppStore'
import type { Catalog } from '../../store/catalog'
import { featureSourceOf, type FeatureSource } from '../../store/openStoreFile'
import type { FireRunRow } from '../../store/fireRunStore'
import type { CircuitSummary } from '../consequence'
import { summariseRun, writeRunOutputs } from './fireRunOutputs'
import type { FireRunOutputs } from './fireRunSettings'

/** What the outputs worker is sent (plain data: structured clone). */
export interface OutputsJob {
  store: FeatureSource
  catalog: Catalog
  runId: number
  outputs: FireRunOutputs
  /** ISO 8601: the provenance's "computed" time. */
  computedAt: string
  timeZone: string
}

export type OutputsAnswer = { ok: true; summaries: CircuitSummary[] } | { ok: false; error: string }

/** The datasets a run's outputs replace. */
export function outputDatasets(outputs: FireRunOutputs): string[] {
  return [...new Set([outputs.consequenceDataset, ...outputs.scores.map((o) => o.dataset)])]
}

/** Reads a run's results, summarises them and writes its outputs through `store` (one transaction). */
export async function writeOutputsThrough(
  store: AppStore,
  run: FireRunRow,
  outputs: FireRunOutputs,
  computedAt: Date,
  timeZone: string,
): Promise<CircuitSummary[]> {
  const results = await store.fireRuns.ignitionResults(run.id)
  const summaries = summariseRun(results)
  await writeRunOutputs(store, run, results, summaries, outputs, computedAt, timeZone)
  return summaries
}

/**
 * Writes run `run`'s outputs — in a worker thread on a connection of its own when the store has a
 * file or database a thread can open, else (an in-memory store) on this thread — and answers its
 * per-circuit summaries. Rejects, with nothing written, when the write fails.
 */
export async function writeRunOutputsOffThread(
  store: AppStore,
  run: FireRunRow,
  outputs: FireRunOutputs,
  computedAt: Date,
  timeZone: string,
): Promise<CircuitSummary[]> {
  const where = featureSourceOf(store)
  if (!where) return writeOutputsThrough(store, run, outputs, computedAt, timeZone)
  const job: OutputsJob = {
    store: where,
    catalog: store.catalog,
    runId: run.id,
    outputs,
    computedAt: computedAt.toISOString(),
    timeZone,
  }
  try {
    // startWorker resolves the module relative to src/server/tiles.
    const worker = startWorker('../fire/runs/fireOutputsWorker', job)
    const answer = await new Promise<OutputsAnswer>((resolve, reject) => {
      worker.once('message', resolve)
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`the fire outputs worker exited (${code})`)))
    }).finally(() => void worker.terminate())
    if (!answer.ok) throw new Error(answer.error)
    return answer.summaries
  } finally {
    // The worker wrote through its own connection: drop this connection's cached answers.
    for (const id of outputDatasets(outputs)) if (store.dataset(id)) await store.datasetReplaced(id)
  }
}
