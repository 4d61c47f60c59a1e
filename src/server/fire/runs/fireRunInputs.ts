// A consequence run's inputs read by the worker thread that runs its batches, not by the server
// thread (docs/fire.md "Consequence run"): the landscape's grids (fuels, terrain, every wind hour)
// and every building and critical facility. Decoding them on the server thread stalled tiles and
// sign-in for a second or more at the start of every run; now the server thread only says where
// they are — the store's file or database — and the worker opens its own read-only connection.
import type { GridStorage } from '../../store/AppStore'
import type { StoredGrid } from '../../store/gridStore'
import type { DatasetDef } from '../../store/catalog'
import { decodeParts } from '../../store/geometryCodec'
import type { OgcFeatureStorage } from '../../store/ogcFeatures'
import { featureSourceOf, openFeatureReader, type FeatureSource } from '../../store/openStoreFile'
import type { AppStore } from '../../store/AppStore'
import { windowStart, type WindowSettings } from '../../grids/forecastWindow'
import type { ConsequenceAssets } from '../consequence'
import { openFireLandscape, type FireLandscapeData, type FireLandscapeOptions } from '../landscape'
import type { FireRunInputs, FireRunSource } from './fireBatchProtocol'
import type { FireRunSettings } from './fireRunSettings'

export type { FireRunSource } from './fireBatchProtocol'

/** Rows per read when a worker reads a dataset's geometries. */
const CHUNK = 5_000

/**
 * The inputs of a run as a recipe for the worker (`source`, no data), or null when a worker cannot
 * open the store (an in-memory store): then the server thread reads them (runInputs).
 */
export function runInputsSource(
  store: AppStore,
  settings: FireRunSettings,
  window: WindowSettings,
  key: string,
  hours: number,
  runSettings: Record<string, unknown>,
  referenceTime: string,
): FireRunInputs | null {
  const where = featureSourceOf(store)
  if (!where) return null
  const num = (v: unknown) => (typeof v === 'number' && v > 0 ? v : undefined)
  const cellSizeM = num(runSettings.cellSizeM)
  const windowHalfSizeM = num(runSettings.windowHalfSizeM)
  return {
    key,
    source: {
      store: where,
      landscape: runLandscape(settings, window, runSettings, referenceTime),
      buildings: store.dataset(settings.buildingsDataset) ?? null,
      facilities: store.dataset(settings.facilitiesDataset) ?? null,
      populationGrid: settings.populationGrid,
    },
    hours,
    ...(cellSizeM ? { cellSizeM } : {}),
    ...(windowHalfSizeM ? { windowHalfSizeM } : {}),
  }
}

/**
 * The landscape options of a recorded run: config's grids, the run's forecast window start, and only
 * the wind hours its fires burn in (`windHoursRead`, recorded when it was planned).
 */
export function runLandscape(
  settings: FireRunSettings,
  window: WindowSettings,
  runSettings: Record<string, unknown>,
  referenceTime: string,
): FireLandscapeOptions {
  const read = runSettings.windHoursRead
  return {
    ...settings.landscape,
    windowStart: windowStart(new Date(referenceTime), window),
    ...(typeof read === 'number' && read > 0 ? { windHoursRead: read } : {}),
  }
}

/** Reads a run's landscape and assets from its source on a connection of this thread's own. */
export async function loadRunInputs(
  source: FireRunSource,
): Promise<{ landscape: FireLandscapeData; assets: ConsequenceAssets }> {
  const { grids: stored, features, close } = openSource(source.store)
  const { grids, keep } = keptGrids(stored)
  try {
    const landscape = await openFireLandscape({ grids }, source.landscape)
    const population = await grids.grid(source.populationGrid)
    keep()
    return {
      landscape: landscape.data,
      assets: {
        buildings: await centresOf(features, source.buildings),
        criticalFacilities: await centresOf(features, source.facilities),
        ...(population
          ? {
              population: {
                nx: population.nx,
                ny: population.ny,
                west: population.west,
                south: population.south,
                east: population.east,
                north: population.north,
                data: population.data,
              },
            }
          : {}),
      },
    }
  } finally {
    await close()
  }
}

/** The grids this thread read for its last run's inputs, by `id/hour`, each with its version. */
let kept = new Map<string, StoredGrid>()

/**
 * `grids` through this thread's grids of its last run: a grid whose stored version is unchanged is
 * not read again. A run after a weather update reads the new wind hours and takes the fuels, terrain
 * and canopy from here (seven 5.6 MB grids on the demo, unchanged between weather updates: 2 s of
 * reading and decoding per thread, and the database's CPU). `keep()`, once the inputs are read,
 * keeps this run's grids only (what its landscape holds anyway).
 */
export function keptGrids(grids: Pick<GridStorage, 'grid' | 'list'>): {
  grids: Pick<GridStorage, 'grid' | 'list'>
  keep: () => void
} {
  const used = new Map<string, StoredGrid>()
  let versions: Map<string, string> | undefined
  const list = async () => {
    const summaries = await grids.list()
    versions = new Map(summaries.map((g) => [g.id, g.version]))
    return summaries
  }
  return {
    grids: {
      list,
      async grid(id, hour = 0) {
        if (!versions) await list()
        const version = versions!.get(id)
        const key = `${id}/${hour}`
        const have = kept.get(key)
        const grid = have && have.version === version ? have : await grids.grid(id, hour)
        if (grid) used.set(key, grid)
        return grid
      },
    },
    keep: () => {
      kept = used
    },
  }
}

function openSource(source: FeatureSource): {
  grids: Pick<GridStorage, 'grid' | 'list'>
  features: OgcFeatureStorage
  close(): Promise<void>
} {
  const { reader, grids, close } = openFeatureReader(source, 'emberline-fire-run')
  return { grids, features: reader, close }
}

/**
 * A point per feature as flat [lon, lat, …]: the mean of its first ring's (or line's, or point's)
 * vertices — what the server thread's runInputs computed.
 */
async function centresOf(features: OgcFeatureStorage, d: DatasetDef | null): Promise<Float64Array> {
  if (!d) return new Float64Array(0)
  const ids = await features.allIds(d)
  const out = new Float64Array(ids.length * 2)
  let k = 0
  for (let i = 0; i < ids.length; i += CHUNK) {
    const slice = ids.slice(i, i + CHUNK)
    const blobs = await features.geometries(d, slice)
    for (const id of slice) {
      const blob = blobs.get(id)
      const ring = blob ? (decodeParts(blob)[0]?.[0] ?? []) : []
      let x = 0
      let y = 0
      for (const p of ring) {
        x += p[0] ?? 0
        y += p[1] ?? 0
      }
      const n = Math.max(1, ring.length)
      out[k++] = x / n
      out[k++] = y / n
    }
  }
  return out
}
