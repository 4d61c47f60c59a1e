import os from 'node:os'
import type { FireLandscapeOptions } from '../landscape'

/** Which line datasets carry the ignitions, and which field names a line's circuit. */
export interface FireRunLines {
  dataset: string
  circuitField: string
}

/** Where a completed run's results go (docs/fire.md "Consequence run: outputs"). */
export interface FireRunOutputs {
  /** The Fire Consequence dataset: per-circuit score, structures and provenance (always). */
  consequenceDataset: string
  /** The consequence raster, one band per forecast hour. */
  consequenceGrid: string
  /** Buildings at which the score reaches 1: score = min(1, max buildings / scoreBuildings). */
  scoreBuildings: number
  /** Other datasets whose circuit field gets the same score (e.g. PSPS circuits' fire_consequence_score). */
  alsoScore: readonly { dataset: string; keyField: string; field: string }[]
}

/** Everything a consequence run needs besides the store. */
export interface FireRunSettings {
  landscape: FireLandscapeOptions
  lines: readonly FireRunLines[]
  buildingsDataset: string
  facilitiesDataset: string
  populationGrid: string
  /** Metres between ignitions along a line. */
  spacingM: number
  /** Hours each fire burns. */
  hours: number
  /** Hours between forecast starts, and how many starts at most. */
  everyHours: number
  starts: number
  /** Ignitions per batch (one forecast start each). */
  batchSize: number
  cellSizeM?: number
  windowHalfSizeM?: number
  /** A running batch whose heartbeat is older than this was claimed by a server that died. */
  claimTimeoutMs: number
  /** How often an idle worker loop looks for a batch, and the leader for a new weather version. */
  pollMs: number
  weatherPollMs: number
  maxAttempts: number
  /** Worker threads per server. */
  workers: number
  outputs: FireRunOutputs
}

/**
 * Worker threads per server: every core but one, and one on a machine of two cores or fewer, so
 * the event loop (tiles, sign-in) always keeps a core.
 */
export function defaultFireWorkers(cores = os.availableParallelism()): number {
  return Math.max(1, cores - 1)
}

export const DEFAULT_FIRE_RUN_SETTINGS: FireRunSettings = {
  landscape: { fuelGrid: 'fuel_model', elevationGrid: 'elevation' },
  lines: [
    { dataset: 'distribution_lines', circuitField: 'identifier' },
    { dataset: 'transmission_lines', circuitField: 'identifier' },
  ],
  buildingsDataset: 'buildings',
  facilitiesDataset: 'critical_infrastructure',
  populationGrid: 'population_density',
  spacingM: 500,
  hours: 6,
  everyHours: 3,
  starts: 8,
  batchSize: 40,
  claimTimeoutMs: 120_000,
  pollMs: 2000,
  weatherPollMs: 30_000,
  maxAttempts: 3,
  workers: defaultFireWorkers(),
  outputs: {
    consequenceDataset: 'fire_consequence',
    consequenceGrid: 'fire_consequence',
    scoreBuildings: 1000,
    alsoScore: [],
  },
}
