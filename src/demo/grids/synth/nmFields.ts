import type { LegendClass } from '../../../shared/config'
import { emptyRaster, fillRaster, type GridRaster, type GridShape } from '../../../server/grids/gridRaster'
import { fireConsequence, epssScore, pspsScore, wildfirePotential } from './fireRisk'
import { fireEncroachment, smokeConcentration, type ActiveFire } from './fires'
import { landCoverGrids } from './landCover'
import { maskFromRings, newMexicoRings } from './nmMask'
import { populationGrid, type Place } from './population'
import { downsample } from './resample'
import { elevationAt, elevationGrid, slopeGrid } from './terrain'
import { weatherHours, type WeatherHour } from './weather'

/** ~1 km cells over New Mexico (0.01°); weather and risk fields use 3×3 blocks (~3 km, like HRRR). */
export const NM_FINE: GridShape = {
  nx: 615,
  ny: 573,
  west: -109.08,
  east: -102.93,
  south: 31.3,
  north: 37.03,
}
export const WEATHER_FACTOR = 3

export interface NmFieldOptions {
  seed: number
  places: readonly Place[]
  fires: readonly ActiveFire[]
  /** Forecast hours in the window (the largest `hourly` of the configured grids). */
  hours: number
  /** Hours of the wind run (`windU`/`windV`), at least `hours`; the other hourly fields keep `hours`. */
  windHours?: number
  /** Local hour at which the window starts (app.yaml forecastWindow.startHourLocal). */
  startHourLocal: number
  /** The vegetation legend's classes (layers.yaml legend `vegetation`). */
  vegetationClasses: readonly LegendClass[]
  /** Grid shape; New Mexico at ~1 km by default (tests use a coarser one). */
  shape?: GridShape
}

/** Every synthetic field; hourly ones are arrays indexed by forecast hour. */
export interface NmFields {
  elevation: GridRaster
  slope: GridRaster
  vegetation: GridRaster
  population: GridRaster
  epss: GridRaster
  fireConsequence: GridRaster
  wpiCurrent: GridRaster
  fireEncroachment: GridRaster
  wpiNext: GridRaster[]
  pspsScore: GridRaster[]
  relativeHumidity: GridRaster[]
  sustainedWind: GridRaster[]
  windGust: GridRaster[]
  /** The wind run: `windHours` hours (the window's first, then on). */
  windU: GridRaster[]
  windV: GridRaster[]
  smoke: GridRaster[]
  /** The unclipped weather of each hour (wind samples, plume outlines). */
  weather: WeatherHour[]
}

/** Generates the New Mexico demo fields, deterministically from the seed, places and fires. */
export function generateNmFields(o: NmFieldOptions): NmFields {
  const shape = o.shape ?? NM_FINE
  const mask = maskFromRings(shape, newMexicoRings())
  const elevation = elevationGrid(shape, mask, o.seed)
  const slope = slopeGrid(elevation)
  const population = populationGrid(elevation, o.places, o.seed)
  const { vegetation, fuel } = landCoverGrids(elevation, population, o.vegetationClasses, o.seed)
  const coarse = (g: GridRaster): GridRaster => downsample(g, WEATHER_FACTOR)
  const elevationC = coarse(elevation)
  const fuelC = coarse(fuel)
  // Weather and smoke cover the whole rectangle (wind and plumes do not stop at the border);
  // the weather fields served as tiles are then clipped to the state.
  const elevationAll = fillRaster(emptyRaster(elevationC), (lon, lat) => elevationAt(lon, lat, o.seed))
  const run = weatherHours(
    elevationAll,
    Math.max(o.hours, o.windHours ?? 0),
    o.startHourLocal,
    o.seed,
    o.hours,
  )
  const weather = run.slice(0, o.hours)
  const clip = (g: GridRaster): GridRaster => masked(g, elevationC)
  // "Current" conditions: the window's mid-morning hour, before the event peaks.
  const now = weather[Math.min(weather.length - 1, Math.max(0, 10 - o.startHourLocal))] ?? weather[0]
  if (!now) throw new Error('forecast window has no hours')
  return {
    elevation,
    slope,
    vegetation,
    population,
    epss: epssScore(fuelC, weather),
    fireConsequence: fireConsequence(coarse(population), fuelC, coarse(slope)),
    wpiCurrent: wildfirePotential(fuelC, now),
    fireEncroachment: fireEncroachment(elevationC, o.fires, now),
    wpiNext: weather.map((w) => wildfirePotential(fuelC, w)),
    pspsScore: weather.map((w) => pspsScore(fuelC, w)),
    relativeHumidity: weather.map((w) => clip(w.relativeHumidity)),
    sustainedWind: weather.map((w) => clip(w.sustainedWind)),
    windGust: weather.map((w) => clip(w.windGust)),
    windU: run.map((w) => w.windU),
    windV: run.map((w) => w.windV),
    smoke: weather.map((w, h) => smokeConcentration(elevationAll, o.fires, w, o.startHourLocal + h)),
    weather,
  }
}

/** A copy of a grid with no data wherever `mask` has none. */
function masked(grid: GridRaster, mask: GridRaster): GridRaster {
  const data = grid.data.map((v, k) => (Number.isNaN(mask.data[k]!) ? Number.NaN : v))
  return { ...grid, data }
}
