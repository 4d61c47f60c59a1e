// `npm run fire -- spread …`: a fire from one or more ignition points over a LANDFIRE landscape for some
// hours, by minimum travel time (src/fire/spread); writes the arrival-time raster and hourly isochrones
// (docs/fire.md).
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Feature, FeatureCollection, MultiPolygon, Polygon } from 'geojson'
import type { FireWeather } from '../../src/fire/fireBehaviourGrid'
import { cellBurns, spreadOverLandscape } from '../../src/fire/spread/landscapeSpread'
import { OUTPUT_NODATA, parseOptions } from './gridCommand'
import {
  LANDSCAPE_OPTIONS,
  numberIn,
  readLandscape,
  readWeatherBase,
  required,
  type LandscapeInput,
  type OptionValues,
} from './landscapeArgs'
import { UsageError } from './cliArgs'
import { assertSameGrid, gdal, lonLatTo, readRaster, writeGeoTiff } from './rasterIo'

export const SPREAD_USAGE = `usage: npm run fire -- spread --ignition <lon,lat> [--ignition <lon,lat> …] --hours <1-72>
    [--start <ISO time of ignition>] --out <directory>
    --fuel … --fuel-models … --slope … --slope-units … --aspect … [canopy rasters] --moisture …
    [--foliar-moisture …] --wind-height 20ft|midflame, and the wind: either
    --wind <mph> --wind-from <degrees>, or hourly grids on the fuel's grid (band n = hour n from ignition)
    --wind-grid <GeoTIFF, mph> --wind-from-grid <GeoTIFF, degrees the wind blows from>`

const OPTIONS = {
  ...LANDSCAPE_OPTIONS,
  ignition: { type: 'string', multiple: true },
  hours: { type: 'string' },
  start: { type: 'string' },
  'wind-grid': { type: 'string' },
  'wind-from-grid': { type: 'string' },
} as const

const isoSeconds = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/

function parseIgnitions(values: OptionValues): [number, number][] {
  const given = values.ignition
  const list = Array.isArray(given) ? given : []
  if (list.length === 0) throw new UsageError('--ignition <lon,lat> is required (one or more)')
  return list.map((text) => {
    const parts = text.split(',')
    if (parts.length !== 2) throw new UsageError(`--ignition takes lon,lat in degrees (got '${text}')`)
    return [
      numberIn(parts[0]!, 'ignition', -180, 180, 'a longitude'),
      numberIn(parts[1]!, 'ignition', -90, 90, 'a latitude'),
    ]
  })
}

/** The hourly wind: one value for the landscape, or one band per hour from the wind grids. */
async function readWind(
  values: OptionValues,
  input: LandscapeInput,
): Promise<{ periods: number; at: (p: number) => Pick<FireWeather, 'windSpeedMph' | 'windFromDeg'> }> {
  const grids = ['wind-grid', 'wind-from-grid'].filter((o) => typeof values[o] === 'string')
  const constant = ['wind', 'wind-from'].filter((o) => typeof values[o] === 'string')
  if (grids.length > 0 && constant.length > 0)
    throw new UsageError(
      `give either --wind/--wind-from or --wind-grid/--wind-from-grid, not both (--${constant[0]} and --${grids[0]})`,
    )
  if (grids.length === 0) {
    const windSpeedMph = numberIn(required(values, 'wind'), 'wind', 0, 200, 'a wind speed in mph')
    const windFromDeg = numberIn(required(values, 'wind-from'), 'wind-from', 0, 360, 'a direction in degrees')
    return { periods: 1, at: () => ({ windSpeedMph, windFromDeg }) }
  }
  const reference = `--fuel '${input.grid.path}'`
  const speed = await readRaster(required(values, 'wind-grid'), 'wind-grid')
  const from = await readRaster(required(values, 'wind-from-grid'), 'wind-from-grid')
  assertSameGrid(input.grid, speed, 'wind-grid', reference)
  assertSameGrid(input.grid, from, 'wind-from-grid', reference)
  if (speed.bands.length !== from.bands.length)
    throw new UsageError(
      `--wind-from-grid has ${from.bands.length} bands and --wind-grid ${speed.bands.length}; give both one band per hour`,
    )
  return {
    periods: speed.bands.length,
    at: (p) => ({ windSpeedMph: speed.bands[p]!, windFromDeg: from.bands[p]! }),
  }
}

/** Cells of the ignition points; an error names the point outside the landscape or on a cell that cannot burn. */
async function ignitionCells(
  points: [number, number][],
  input: LandscapeInput,
  firstHour: FireWeather,
): Promise<number[]> {
  const xy = await lonLatTo(input.wkt, points)
  const [x0, dx, , y0, , dy] = input.grid.geoTransform
  const { width, height } = input.landscape
  return xy.map(([x, y], k) => {
    const col = Math.floor((x - x0) / dx)
    const row = Math.floor((y - y0) / dy)
    const [lon, lat] = points[k]!
    if (!(col >= 0 && col < width && row >= 0 && row < height))
      throw new UsageError(`--ignition ${lon},${lat} lies outside the landscape of --fuel`)
    const cell = row * width + col
    if (!cellBurns(input.landscape, firstHour, cell))
      throw new UsageError(
        `--ignition ${lon},${lat} falls on a cell that does not burn (non-burnable fuel, too wet, or no data)`,
      )
    return cell
  })
}

/** Hourly isochrones (area burned by hour h) in lon/lat: gdal_contour per hour, ogr2ogr to WGS 84. */
async function isochrones(
  input: LandscapeInput,
  arrival: Float64Array,
  hours: number,
  start: Date | undefined,
): Promise<FeatureCollection> {
  const dir = await mkdtemp(join(tmpdir(), 'emberline-spread-'))
  try {
    const field = Float32Array.from(arrival, (t) => (t < Infinity ? t : 1e9))
    const tif = join(dir, 'arrival.tif')
    await writeGeoTiff(tif, input.grid, input.wkt, field, 'Float32', OUTPUT_NODATA)
    const features: Feature<Polygon | MultiPolygon>[] = []
    for (let h = 1; h <= hours; h++) {
      const level = h * 60
      const file = join(dir, `h${h}.geojson`)
      await gdal('gdal_contour', [
        '-q',
        '-p',
        '-amax',
        'amax',
        '-fl',
        String(level),
        '-f',
        'GeoJSON',
        tif,
        file,
      ])
      const fc = JSON.parse(await readFile(file, 'utf8')) as FeatureCollection<Polygon | MultiPolygon>
      for (const f of fc.features)
        if (Number(f.properties?.amax) === level)
          features.push({
            type: 'Feature',
            properties: {
              hour: h,
              minutes: level,
              ...(start ? { time: isoSeconds(new Date(start.getTime() + level * 60_000)) } : {}),
            },
            geometry: f.geometry,
          })
    }
    const projected = join(dir, 'isochrones.json')
    await writeFile(projected, JSON.stringify({ type: 'FeatureCollection', features }))
    const lonLat = join(dir, 'isochrones.geojson')
    await gdal('ogr2ogr', [
      '-f',
      'GeoJSON',
      '-s_srs',
      input.wkt,
      '-t_srs',
      'EPSG:4326',
      '-lco',
      'RFC7946=YES',
      '-lco',
      'COORDINATE_PRECISION=7',
      lonLat,
      projected,
    ])
    return JSON.parse(await readFile(lonLat, 'utf8')) as FeatureCollection
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Runs `spread`; answers a JSON summary (burned area by hour). */
export async function runSpread(args: readonly string[]): Promise<string> {
  const values = parseOptions(args, OPTIONS)
  const out = required(values, 'out')
  const points = parseIgnitions(values)
  const hours = numberIn(required(values, 'hours'), 'hours', 1, 72, 'a whole number of hours')
  if (!Number.isInteger(hours))
    throw new UsageError(
      `--hours must be a whole number of hours from 1 to 72 (got '${String(values.hours)}')`,
    )
  const startText = values.start
  let start: Date | undefined
  if (typeof startText === 'string') {
    start = new Date(startText)
    if (!ISO_TIME.test(startText) || Number.isNaN(start.getTime()))
      throw new UsageError(
        `--start must be an ISO 8601 time with a zone, e.g. 2026-07-01T13:00Z (got '${startText}')`,
      )
  }
  const input = await readLandscape(values)
  const base = readWeatherBase(values, input.landscape)
  const wind = await readWind(values, input)
  // Fire behaviour is computed per block of 32 × 32 cells only where the fire comes (as the map's
  // "what if" does), not over the whole landscape first.
  const weather = (p: number): FireWeather => ({ ...base, ...wind.at(p) })
  const cells = await ignitionCells(points, input, weather(0))
  const started = performance.now()
  const arrival = spreadOverLandscape({
    landscape: input.landscape,
    weather,
    periods: wind.periods,
    cellWidthM: input.cellWidthM,
    cellHeightM: input.cellHeightM,
    ignitionCells: cells,
    maxMinutes: hours * 60,
  })
  const spreadMs = performance.now() - started
  await mkdir(out, { recursive: true })
  const minutes = Float32Array.from(arrival, (t) => (t < Infinity ? t : NaN))
  await writeGeoTiff(
    join(out, 'arrival_minutes.tif'),
    input.grid,
    input.wkt,
    minutes,
    'Float32',
    OUTPUT_NODATA,
  )
  const collection = await isochrones(input, arrival, hours, start)
  await writeFile(join(out, 'isochrones.geojson'), JSON.stringify(collection))
  const cellHa = (input.cellWidthM * input.cellHeightM) / 10_000
  const burnedHa = Array.from({ length: hours }, (_, h) => {
    let k = 0
    for (const t of arrival) if (t <= (h + 1) * 60) k++
    return Number((k * cellHa).toFixed(2))
  })
  return JSON.stringify({
    hours,
    ...(start ? { start: isoSeconds(start) } : {}),
    burned_ha_by_hour: burnedHa,
    spread_ms: Math.round(spreadMs),
    files: ['arrival_minutes.tif', 'isochrones.geojson'],
  })
}
