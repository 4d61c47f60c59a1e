import type { AppStore, GridStorage } from '../../store/AppStore'
import type { OgcFeatureRow } from '../../store/ogcFeatures'
import { featureSourceOf } from '../../store/openStoreFile'
import { decodeParts, partsToGeometry } from '../../store/geometryCodec'
import { windowStart, type WindowSettings } from '../../grids/forecastWindow'
import { WIND_U_GRID } from '../../grids/windGrid'
import { ignitionPoints, type ConsequenceAssets, type OverheadLine } from '../consequence'
import { openFireLandscape, type FireLandscape } from '../landscape'
import type { NewFireBatch, NewFireRun, FireRunTrigger } from '../../store/fireRunStore'
import type { FireRunInputs } from './fireBatchProtocol'
import type { FireRunLines, FireRunSettings } from './fireRunSettings'
import { readPlanInWorker, type PlanReading } from './readPlanInWorker'
import { runLandscape } from './fireRunInputs'

const HOUR_MS = 3_600_000

/** The landscape of the store's current grids, hour 0 at the forecast window's start. */
export async function currentLandscape(
  store: AppStore,
  settings: FireRunSettings,
  window: WindowSettings,
  now = new Date(),
): Promise<{ landscape: FireLandscape; start: Date }> {
  const start = windowStart(now, window)
  const landscape = await openFireLandscape(store, { ...settings.landscape, windowStart: start })
  return { landscape, start }
}

/** A line dataset's features, as the planner reads them (all at once, or in chunks from a worker). */
export type LineRows = (dataset: string) => AsyncIterable<readonly OgcFeatureRow[]>

/** Every line of the configured line datasets with its circuit. */
export async function overheadLines(
  lines: readonly FireRunLines[],
  rowsOf: LineRows,
): Promise<OverheadLine[]> {
  const out: OverheadLine[] = []
  for (const l of lines) {
    for await (const rows of rowsOf(l.dataset)) {
      for (const f of rows) {
        const circuit = f.properties[l.circuitField]
        if (circuit === null || circuit === undefined || circuit === '') continue
        if (l.overhead && !l.overhead.values.includes(String(f.properties[l.overhead.field] ?? ''))) continue
        const g = partsToGeometry(decodeParts(f.geom), 'line')
        if (g.type !== 'LineString' && g.type !== 'MultiLineString') continue
        out.push({ circuit: String(circuit), lineId: `${l.dataset}/${f.id}`, coordinates: g.coordinates })
      }
    }
  }
  return out
}

/** Forecast starts: hour 0, every `everyHours`, while wind hours last, at most `starts`. */
export function startHours(settings: FireRunSettings, windHours: number): number[] {
  const hours: number[] = []
  const last = Math.max(1, windHours)
  for (let h = 0; h < last && hours.length < settings.starts; h += settings.everyHours) hours.push(h)
  return hours
}

/** Reads what a plan needs (on the server thread, or in a planning worker over its own connection). */
export async function readPlan(
  grids: Pick<GridStorage, 'grid' | 'list'>,
  rowsOf: LineRows,
  settings: Pick<FireRunSettings, 'landscape' | 'lines' | 'spacingM'>,
  start: Date,
): Promise<PlanReading> {
  const landscape = await openFireLandscape({ grids }, { ...settings.landscape, windowStart: start })
  const ignitions = ignitionPoints(await overheadLines(settings.lines, rowsOf), settings.spacingM)
  return {
    windHours: landscape.windHours,
    described: landscape.describe(),
    grids: landscape.data.provenance,
    ignitions,
  }
}

/**
 * The run to record: its ignitions in batches of `batchSize`, one forecast start per batch. The
 * grids and lines are read and the ignitions placed by a planning worker thread when the store can
 * be opened from one (firePlanWorker.ts), so a run's planning never stalls tiles or sign-in.
 */
export async function planFireRun(
  store: AppStore,
  settings: FireRunSettings,
  window: WindowSettings,
  trigger: FireRunTrigger,
  requestedBy: string | null,
  now = new Date(),
): Promise<NewFireRun> {
  const start = windowStart(now, window)
  const source = featureSourceOf(store)
  const reading = source
    ? await readPlanInWorker({
        store: source,
        settings: { landscape: settings.landscape, lines: settings.lines, spacingM: settings.spacingM },
        lineDatasets: Object.fromEntries(
          settings.lines.flatMap((l) => {
            const d = store.dataset(l.dataset)
            return d ? [[l.dataset, d]] : []
          }),
        ),
        start: start.toISOString(),
      })
    : await readPlan(
        store.grids,
        async function* (dataset) {
          if (store.dataset(dataset)) yield await store.allFeatures(dataset)
        },
        settings,
        start,
      )
  const { ignitions, described } = reading
  const hours = startHours(settings, reading.windHours)
  const batches: NewFireBatch[] = []
  for (const h of hours) {
    const startTime = new Date(start.getTime() + h * HOUR_MS).toISOString()
    for (let i = 0; i < ignitions.length; i += settings.batchSize)
      batches.push({ startHour: h, startTime, ignitions: ignitions.slice(i, i + settings.batchSize) })
  }
  const windVersion = (await store.grids.version(settings.landscape.windUGrid ?? WIND_U_GRID)) ?? null
  return {
    trigger,
    requestedBy,
    windVersion,
    referenceTime: start.toISOString(),
    startHours: hours,
    settings: {
      spacingM: settings.spacingM,
      hours: settings.hours,
      everyHours: settings.everyHours,
      batchSize: settings.batchSize,
      windHours: reading.windHours,
      // The wind hours the run's fires burn in (the workers read no others): to the last start's end.
      windHoursRead: Math.min(reading.windHours, Math.max(0, ...hours) + settings.hours + 1),
      ...(settings.cellSizeM ? { cellSizeM: settings.cellSizeM } : {}),
      ...(settings.windowHalfSizeM ? { windowHalfSizeM: settings.windowHalfSizeM } : {}),
    },
    provenance: {
      fuels: described.fuels,
      terrain: described.terrain,
      wind: described.wind,
      canopy: described.canopy,
      summary: described.summary,
      grids: reading.grids,
      lines: settings.lines.map((l) => l.dataset),
      ignitions: ignitions.length,
    },
    batches,
    createdAt: now.toISOString(),
  }
}

/** Point coordinates of a dataset as flat [lon, lat, …] (a polygon or line by its first vertex's part centre). */
async function pointsOf(store: AppStore, dataset: string): Promise<Float64Array> {
  if (!store.dataset(dataset)) return new Float64Array(0)
  const features = await store.allFeatures(dataset)
  const out = new Float64Array(features.length * 2)
  features.forEach((f, i) => {
    const ring = decodeParts(f.geom)[0]?.[0] ?? []
    let x = 0
    let y = 0
    for (const p of ring) {
      x += p[0] ?? 0
      y += p[1] ?? 0
    }
    const n = Math.max(1, ring.length)
    out[2 * i] = x / n
    out[2 * i + 1] = y / n
  })
  return out
}

/** What the workers of this server need for a run: its landscape and assets (read once per run). */
export async function runInputs(
  store: AppStore,
  settings: FireRunSettings,
  window: WindowSettings,
  key: string,
  hours: number,
  runSettings: Record<string, unknown>,
  referenceTime: string,
): Promise<FireRunInputs> {
  const landscape = await openFireLandscape(store, runLandscape(settings, window, runSettings, referenceTime))
  const population = await store.grids.grid(settings.populationGrid)
  const assets: ConsequenceAssets = {
    buildings: await pointsOf(store, settings.buildingsDataset),
    criticalFacilities: await pointsOf(store, settings.facilitiesDataset),
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
  }
  const num = (v: unknown) => (typeof v === 'number' && v > 0 ? v : undefined)
  const cellSizeM = num(runSettings.cellSizeM)
  const windowHalfSizeM = num(runSettings.windowHalfSizeM)
  return {
    key,
    landscape: landscape.data,
    assets,
    hours,
    ...(cellSizeM ? { cellSizeM } : {}),
    ...(windowHalfSizeM ? { windowHalfSizeM } : {}),
  }
}
