import fs from 'node:fs'
import path from 'node:path'
import type { FeatureInput } from '../../server/store/Store'
import type { AppStore } from '../../server/store/AppStore'
import { appConfig, fireConfig } from '../../shared/config'
import { gridCatalog, windowHours, windowSettings, type GridCatalog } from '../../server/grids/gridCatalog'
import { windowStart, windowTimes } from '../../server/grids/forecastWindow'
import type { GridRaster, GridShape } from '../../server/grids/gridRaster'
import { smokePolygons, windPoints } from './gridFeatures'
import type { ActiveFire } from './synth/fires'
import { generateNmFields, type NmFields } from './synth/nmFields'
import { parsePlaces, type Place } from './synth/population'
import { WIND_U_GRID, WIND_V_GRID } from '../../server/grids/windGrid'
import { ELEVATION_GRID, FUEL_MODEL_GRID } from '../../server/fire/landscape'
import { fireLandscapeGrids, fireShape } from './synth/fireFuels'

/** Which synthetic field fills which configured grid. Grids not listed stay empty until imported. */
const SYNTHETIC: Record<string, (f: NmFields) => GridRaster[]> = {
  epss_score: (f) => [f.epss],
  psps_score: (f) => f.pspsScore,
  fire_consequence: (f) => [f.fireConsequence],
  wildfire_potential_index_next: (f) => f.wpiNext,
  relative_humidity_next: (f) => f.relativeHumidity,
  sustained_wind_next: (f) => f.sustainedWind,
  wind_gust_next: (f) => f.windGust,
  slope: (f) => [f.slope],
  vegetation: (f) => [f.vegetation],
  population_density: (f) => [f.population],
  wildfire_potential_index_current: (f) => [f.wpiCurrent],
  fire_encroachment: (f) => [f.fireEncroachment],
  smoke: (f) => f.smoke,
}

/** The datasets filled from the grids (spec layer/dataset ids). */
const WIND_DATASET = 'wind_vectors'
const SMOKE_DATASET = 'smoke'
const FIRES_DATASET = 'fire_extent_active'

/**
 * Hours of the demo's wind run (wind_u/wind_v): a 48-hour forecast like the spec's weather cadence, so
 * config/fire.yaml's consequence run fits (8 starts every 3 h, fires of 6 h: 27 hours); the other
 * hourly grids keep the 18-hour forecast window.
 */
export const DEMO_WIND_HOURS = 48

export const DEFAULT_PLACES_CSV = path.resolve(import.meta.dirname, '../../../tests/fixtures/nm-places.csv')

export interface SeedGridsOptions {
  seed: number
  demo?: boolean
  places?: readonly Place[]
  /** Active fires; read from the store's fire_extent_active dataset when omitted. */
  fires?: readonly ActiveFire[]
  /** Grid shape (tests use a coarse one). */
  shape?: GridShape
  catalog?: GridCatalog
  now?: Date
  /** Hours of the wind run (default DEMO_WIND_HOURS; never fewer than the window's). */
  windHours?: number
}

export interface SeedGridsResult {
  grids: string[]
  skipped: string[]
  windPoints: number
  smokePolygons: number
}

type SeedStore = Pick<AppStore, 'grids' | 'dataset' | 'records' | 'replaceDataset'>

/** Active fires from the store: bbox centre, acres and containment of each perimeter. */
export async function firesFromStore(store: SeedStore): Promise<ActiveFire[]> {
  if (!store.dataset(FIRES_DATASET)) return []
  return (await store.records(FIRES_DATASET, [], 1000, 0)).records.flatMap((r): ActiveFire[] => {
    const bbox = r.bbox
    if (!Array.isArray(bbox) || bbox.length !== 4) return []
    const [w, s, e, n] = bbox as [number, number, number, number]
    return [
      {
        name: String(r.incident_name ?? ''),
        lon: (w + e) / 2,
        lat: (s + n) / 2,
        acres: Number(r.acres ?? 0),
        percentContained: Number(r.percent_contained ?? 0),
      },
    ]
  })
}

/** Generates the New Mexico grids and the wind/smoke datasets and stores them. Deterministic. */
export async function seedGrids(store: SeedStore, o: SeedGridsOptions): Promise<SeedGridsResult> {
  const catalog = o.catalog ?? gridCatalog()
  const hours = windowHours(catalog)
  const settings = windowSettings(o.demo ?? true)
  const validTimes = windowTimes(windowStart(o.now ?? new Date(), settings), hours)
  const vegetationLegend = catalog.grids.find((g) => g.id === 'vegetation')?.legend
  const vegetation = vegetationLegend?.type === 'classes' ? vegetationLegend.classes : []
  const fires = o.fires ?? (await firesFromStore(store))
  const fields = generateNmFields({
    seed: o.seed,
    places: o.places ?? parsePlaces(fs.readFileSync(DEFAULT_PLACES_CSV, 'utf8')),
    fires,
    hours,
    windHours: o.windHours ?? DEMO_WIND_HOURS,
    startHourLocal: appConfig.forecastWindow.startHourLocal,
    vegetationClasses: vegetation,
    ...(o.shape ? { shape: o.shape } : {}),
  })
  const grids = store.grids
  const result: SeedGridsResult = { grids: [], skipped: [], windPoints: 0, smokePolygons: 0 }
  for (const g of catalog.grids) {
    const make = SYNTHETIC[g.id]
    if (!make) {
      result.skipped.push(g.id)
      continue
    }
    await grids.replaceGrid(g.id, make(fields).slice(0, g.hours), 'synthetic')
    result.grids.push(g.id)
  }
  await grids.replaceGrid(WIND_U_GRID, fields.windU, 'synthetic')
  await grids.replaceGrid(WIND_V_GRID, fields.windV, 'synthetic')
  result.grids.push(WIND_U_GRID, WIND_V_GRID)
  // The fire landscape (docs/fire.md): FBFM40 fuels from the land cover and elevation, at 0.005°.
  const fire = fireLandscapeGrids(fireShape(fields.elevation), fields.elevation, fields.population, o.seed)
  await grids.replaceGrid(FUEL_MODEL_GRID, [fire.fuel], 'synthetic FBFM40 from the demo land cover')
  await grids.replaceGrid(ELEVATION_GRID, [fire.elevation], 'synthetic demo terrain')
  result.grids.push(FUEL_MODEL_GRID, ELEVATION_GRID)
  // The canopy over the timber fuels, under the ids config/fire.yaml reads for crown fire.
  const crown = fireConfig.landscape.crown
  for (const [id, grid, what] of [
    [crown.canopyCoverGrid, fire.canopy.cover, 'cover %'],
    [crown.canopyHeightGrid, fire.canopy.height, 'height m'],
    [crown.canopyBaseHeightGrid, fire.canopy.baseHeight, 'base height m'],
    [crown.canopyBulkDensityGrid, fire.canopy.bulkDensity, 'bulk density kg/m³'],
  ] as const) {
    await grids.replaceGrid(id, [grid], `synthetic canopy ${what} from the demo land cover`)
    result.grids.push(id)
  }
  if (store.dataset(WIND_DATASET)) {
    const points = windPoints(
      fields.windU.slice(0, hours),
      fields.windV.slice(0, hours),
      fields.relativeHumidity[0]!,
      validTimes,
      8,
    )
    result.windPoints = await store.replaceDataset(WIND_DATASET, points as FeatureInput[])
  }
  const smokeGrid = catalog.grids.find((g) => g.id === 'smoke')
  if (store.dataset(SMOKE_DATASET) && smokeGrid) {
    const bands = (smokeGrid.legend.type === 'gradient' ? smokeGrid.legend.stops : []).map((s) => s.value)
    const polygons = smokePolygons(
      fires,
      fields.weather,
      appConfig.forecastWindow.startHourLocal,
      validTimes,
      bands,
    )
    result.smokePolygons = await store.replaceDataset(SMOKE_DATASET, polygons as FeatureInput[])
  }
  return result
}
