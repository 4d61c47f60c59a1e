import type { FireLandscapeData } from '../landscape'
import type { BlockCacheStats } from '../simulate'
import type { ConsequenceAssets } from '../consequence'
import type { FireIgnition, FireIgnitionResult } from '../../store/fireRunStore'
import type { DatasetDef } from '../../store/catalog'
import type { FeatureSource } from '../../store/openStoreFile'
import type { FireLandscapeOptions } from '../landscape'

/** Where a worker reads a run's inputs (plain data: sent to the thread as it is). */
export interface FireRunSource {
  store: FeatureSource
  landscape: FireLandscapeOptions
  /** The buildings and critical facilities datasets (null when the catalogue has none). */
  buildings: DatasetDef | null
  facilities: DatasetDef | null
  populationGrid: string
}

/**
 * The inputs of one run, sent once to each worker (plain data: structured clone): where the worker
 * reads the landscape and assets itself (`source`, fireRunInputs.ts), or — for a store a worker
 * cannot open — the data read by the server thread.
 */
export interface FireRunInputs {
  /** Identifies the inputs (the run's id): a worker keeps the last ones it was sent. */
  key: string
  source?: FireRunSource
  landscape?: FireLandscapeData
  assets?: ConsequenceAssets
  hours: number
  cellSizeM?: number
  windowHalfSizeM?: number
}

export type FireWorkerRequest =
  | { type: 'inputs'; inputs: FireRunInputs }
  | { type: 'batch'; id: number; key: string; startHour: number; ignitions: FireIgnition[] }

export type FireWorkerAnswer =
  | { id: number; ok: true; results: FireIgnitionResult[]; cache: BlockCacheStats }
  | { id: number; ok: false; error: string }

/** A worker's answer to `inputs`: it has read them (or failed to). */
export interface FireWorkerReady {
  ready: string
  ok: boolean
  error?: string
}

/** A worker's first message: its thread id once it has lowered its own priority (null: it could not). */
export interface FireWorkerThread {
  thread: number | null
}
