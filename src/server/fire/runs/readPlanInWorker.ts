// A consequence run's planning read off the server thread: the landscape's grids (fuels, terrain,
// every wind hour, canopy) decoded and described and every overhead line turned into ignitions took
// 1–2 s of the event loop on the demo (15–30 s on a loaded machine), stalling tiles and sign-in at
// every weather update. A short-lived worker thread (firePlanWorker.ts) now opens the store on a
// connection of its own, reads, and answers the ignitions; the server thread only batches them.
import { startWorker } from '../../tiles/startWorker'
import type { DatasetDef } from '../../store/catalog'
import type { FeatureSource } from '../../store/openStoreFile'
import type { FireRunSettings } from './fireRunSettings'
import type { FireLandscape, FireLandscapeData } from '../landscape'
import type { Ignition } from '../consequence'

/** What planning reads from the store: the landscape's description and the ignitions. */
export interface PlanReading {
  windHours: number
  described: ReturnType<FireLandscape['describe']>
  grids: FireLandscapeData['provenance']
  ignitions: Ignition[]
}

/** What the planning worker is sent (plain data: structured clone). */
export interface PlanJob {
  store: FeatureSource
  settings: Pick<FireRunSettings, 'landscape' | 'lines' | 'spacingM'>
  /** The line datasets' definitions by id (those the catalogue has). */
  lineDatasets: Record<string, DatasetDef>
  /** The forecast window's start (ISO 8601): the landscape's hour 0. */
  start: string
}

export type PlanAnswer = { ok: true; reading: PlanReading } | { ok: false; error: string }

/** Reads the plan in a worker thread; rejects with the worker's error. */
export function readPlanInWorker(job: PlanJob): Promise<PlanReading> {
  // startWorker resolves the module relative to src/server/tiles.
  const worker = startWorker('../fire/runs/firePlanWorker', job)
  return new Promise<PlanReading>((resolve, reject) => {
    worker.once('message', (a: PlanAnswer) => (a.ok ? resolve(a.reading) : reject(new Error(a.error))))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the fire planning worker exited (${code})`)))
  }).finally(() => void worker.terminate())
}
