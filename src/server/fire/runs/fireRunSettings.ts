import os from 'node:os'
import type { FuelMoisturePercent } from '../../../fire/fuelbed'
import { fireConfig, type FireConfig } from '../../../shared/config'
import type { FireLandscapeOptions } from '../landscape'

/** Which line datasets carry the ignitions, and which field names a line's circuit. */
export interface FireRunLines {
  dataset: string
  circuitField: string
  /** Only lines whose `field` holds one of `values` are overhead (absent: every line is). */
  overhead?: { field: string; values: readonly string[] }
}

/** What an ignition's fire reaches that makes a score (a measure of `IgnitionResult`). */
export type FireMeasure = 'acres' | 'buildings' | 'population' | 'criticalFacilities'

/** A 0–1 score from the run: per circuit into a dataset's field, and as a raster. */
export interface FireScoreOutput {
  dataset: string
  keyField: string
  field: string
  /** A string field that gets the provenance line. */
  provenanceField?: string
  /** The score raster: hourly (one band per forecast hour) or each cell's worst over every start. */
  grid?: string
  hourly: boolean
  measure: FireMeasure
  /** A circuit's value over its ignitions: the worst, or the 90th percentile (nearest rank). */
  statistic: 'max' | 'p90'
  /** The measure at which the score reaches 1: score = min(1, value / scoreAt). */
  scoreAt: number
}

/** Where a completed run's results go (config/fire.yaml `outputs`; docs/fire.md "Consequence run: outputs"). */
export interface FireRunOutputs {
  /** The Fire Consequence dataset: per-circuit score, structures and provenance (always). */
  consequenceDataset: string
  /** The consequence raster, one band per forecast hour. */
  consequenceGrid: string
  /** How the consequence score is made from a circuit's ignitions. */
  consequence: Pick<FireScoreOutput, 'measure' | 'statistic' | 'scoreAt'>
  /** The PSPS and EPSS scores, where config/fire.yaml names them. */
  scores: readonly (FireScoreOutput & { name: 'psps' | 'epss' })[]
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
  /** Finished runs that keep their batches (ignitions and per-ignition results). */
  keepDetailRuns: number
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

/** Scott & Burgan's (2005) fuel moisture scenarios: dead D1–D4 (1-h, 10-h, 100-h %), live L1–L4 (herbaceous, woody %). */
const DEAD_SCENARIOS = { D1: [3, 4, 5], D2: [6, 7, 8], D3: [9, 10, 11], D4: [12, 13, 14] } as const
const LIVE_SCENARIOS = { L1: [30, 60], L2: [60, 90], L3: [90, 120], L4: [120, 150] } as const

/** The fuel moistures of config/fire.yaml `landscape.moisture`: a scenario such as D1L2, or the five percents. */
export function fuelMoisture(m: FireConfig['landscape']['moisture']): FuelMoisturePercent {
  if (typeof m !== 'string')
    return {
      oneHourPercent: m.oneHour,
      tenHourPercent: m.tenHour,
      hundredHourPercent: m.hundredHour,
      liveHerbPercent: m.liveHerb,
      liveWoodyPercent: m.liveWoody,
    }
  const dead = DEAD_SCENARIOS[m.slice(0, 2) as keyof typeof DEAD_SCENARIOS]
  const live = LIVE_SCENARIOS[m.slice(2) as keyof typeof LIVE_SCENARIOS]
  return {
    oneHourPercent: dead[0],
    tenHourPercent: dead[1],
    hundredHourPercent: dead[2],
    liveHerbPercent: live[0],
    liveWoodyPercent: live[1],
  }
}

/** The run's settings from config/fire.yaml (every key defaulted by its schema), plus the server's own. */
export function fireRunSettingsFrom(config: FireConfig, workers = defaultFireWorkers()): FireRunSettings {
  const { run, landscape, assets, outputs } = config
  const crown = landscape.crown
  const score = (name: 'psps' | 'epss') => {
    const o = outputs[name]
    return o ? [{ name, ...o }] : []
  }
  return {
    landscape: {
      fuelGrid: landscape.fuelGrid,
      elevationGrid: landscape.elevationGrid,
      moisture: fuelMoisture(landscape.moisture),
      windTo20ftFactor: landscape.windTo20ftFactor,
      // The canopy shelters the wind; with its base height and bulk density the fire can crown.
      canopyCoverGrid: crown.canopyCoverGrid,
      canopyHeightGrid: crown.canopyHeightGrid,
      ...(crown.enabled
        ? {
            canopyBaseHeightGrid: crown.canopyBaseHeightGrid,
            canopyBulkDensityGrid: crown.canopyBulkDensityGrid,
            foliarMoisturePercent: crown.foliarMoisturePercent,
          }
        : {}),
    },
    lines: config.lines.map((l) => ({
      dataset: l.dataset,
      circuitField: l.circuitField,
      ...(l.overhead ? { overhead: { field: l.overhead.field, values: [...l.overhead.values] } } : {}),
    })),
    buildingsDataset: assets.buildings,
    facilitiesDataset: assets.criticalFacilities,
    populationGrid: assets.population,
    spacingM: run.spacingM,
    hours: run.hours,
    everyHours: run.everyHours,
    starts: run.starts,
    batchSize: run.batchSize,
    keepDetailRuns: run.keepDetailRuns,
    cellSizeM: run.cellSizeM,
    claimTimeoutMs: 120_000,
    pollMs: 2000,
    weatherPollMs: 30_000,
    maxAttempts: 3,
    workers,
    outputs: {
      consequenceDataset: outputs.consequence.dataset,
      consequenceGrid: outputs.consequence.grid,
      consequence: {
        measure: outputs.consequence.measure,
        statistic: outputs.consequence.statistic,
        scoreAt: outputs.consequence.scoreAt,
      },
      scores: [...score('psps'), ...score('epss')],
    },
  }
}

/** config/fire.yaml as the server runs it. */
export const DEFAULT_FIRE_RUN_SETTINGS: FireRunSettings = fireRunSettingsFrom(fireConfig)
