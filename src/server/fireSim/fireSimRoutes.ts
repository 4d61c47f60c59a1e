import type { FastifyInstance } from 'fastify'
import { findFuelModel, isBurnable } from '../../fire'
import {
  WHAT_IF_DEFAULT_HOURS,
  WHAT_IF_MAX_HOURS,
  type FireWhatIfInfo,
  type FireWhatIfResult,
} from '../../shared/fireSim/wireTypes'
import {
  openFireLandscape,
  FireLandscapeError,
  type FireLandscape,
  type FireLandscapeOptions,
} from '../fire/landscape'
import { DEFAULT_CELL_SIZE_M } from '../fire/simulate'
import { currentWindowHour, windowStart, windowTimes } from '../grids/forecastWindow'
import { gridCatalog, windowHours, windowSettings } from '../grids/gridCatalog'
import { WIND_U_GRID, WIND_V_GRID } from '../grids/windGrid'
import { HttpError } from '../http/httpErrors'
import { noQuery } from '../http/schemas'
import { FireSimPool, FireSimRefused } from './fireSimPool'
import { whatLiesInside } from './whatLiesInside'

/** The configured landscape: the same grids as the consequence run (docs/fire.md). */
export const WHAT_IF_LANDSCAPE: FireLandscapeOptions = { fuelGrid: 'fuel_model', elevationGrid: 'elevation' }

export interface FireSimRoutesOptions {
  demo: boolean
  /** Which grids make the landscape (default WHAT_IF_LANDSCAPE). */
  landscape?: FireLandscapeOptions
  cellSizeM?: number
  /** The clock (tests pin it); the demo window ignores the date. */
  now?: () => Date
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The what-if simulations' worker thread (src/server/fireSim). */
    fireSimPool: FireSimPool
  }
}

const fuelAt = (land: FireLandscape, lon: number, lat: number): number => {
  const g = land.data.fuel
  const fx = ((lon - g.west) / (g.east - g.west)) * g.nx
  const fy = ((g.north - lat) / (g.north - g.south)) * g.ny
  if (!(fx >= 0 && fy >= 0 && fx < g.nx && fy < g.ny)) return Number.NaN
  return g.data[Math.floor(fy) * g.nx + Math.floor(fx)] ?? Number.NaN
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits

/**
 * "What if a fire starts here?" (issue #31 item 4). POST /api/fire/simulate `{ lon, lat, hour?, hours? }`
 * spreads one free-burning fire from the point over the configured fuels, terrain and the forecast
 * winds from that hour on (src/server/fire/simulate.ts, in a worker thread) and answers its hourly
 * isochrones, perimeter, acres and what lies inside. GET /api/fire/simulate: the hours it takes and the
 * landscape's extent. Session required (the app's default).
 */
export async function fireSimRoutes(app: FastifyInstance, opts: FireSimRoutesOptions): Promise<void> {
  const landscapeOptions = opts.landscape ?? WHAT_IF_LANDSCAPE
  const cellSizeM = opts.cellSizeM ?? DEFAULT_CELL_SIZE_M
  const window = windowSettings(opts.demo)
  const hours = windowHours(gridCatalog())
  const now = opts.now ?? (() => new Date())
  const pool = new FireSimPool()
  app.decorate('fireSimPool', pool)
  app.addHook('onClose', async () => pool.close())

  // The landscape of the grids' current versions (read from the store once per version).
  let loaded: { key: string; landscape: FireLandscape } | null = null
  let loading: Promise<{ key: string; landscape: FireLandscape }> | null = null
  const ids = [
    landscapeOptions.fuelGrid,
    landscapeOptions.elevationGrid ?? '',
    landscapeOptions.slopeGrid ?? '',
    landscapeOptions.aspectGrid ?? '',
    landscapeOptions.windUGrid ?? WIND_U_GRID,
    landscapeOptions.windVGrid ?? WIND_V_GRID,
  ].filter(Boolean)
  const landscape = async (start: Date): Promise<{ key: string; landscape: FireLandscape } | null> => {
    const versions = await Promise.all(ids.map(async (id) => (await app.store.grids.version(id)) ?? '-'))
    if (versions[0] === '-') return null
    const key = `${versions.join('/')}@${start.toISOString()}`
    if (loaded?.key === key) return loaded
    if (!loading) {
      loading = openFireLandscape(app.store, { ...landscapeOptions, windowStart: start })
        .then((l) => (loaded = { key, landscape: l }))
        .finally(() => {
          loading = null
        })
    }
    return loading
  }
  const noLandscape = () =>
    new HttpError(404, `no fire landscape: the fuel grid '${landscapeOptions.fuelGrid}' is not stored`)

  app.get('/api/fire/simulate', { schema: { querystring: noQuery } }, async (_request, reply) => {
    const at = now()
    const start = windowStart(at, window)
    const land = await landscape(start)
    // The first what-if then finds its thread started.
    if (land) pool.warm()
    reply.header('cache-control', 'no-store')
    const info: FireWhatIfInfo = {
      hours,
      currentHour: currentWindowHour(at, window, hours),
      validTimes: windowTimes(start, hours),
      maxHours: WHAT_IF_MAX_HOURS,
      defaultHours: WHAT_IF_DEFAULT_HOURS,
      bbox: land ? land.landscape.bounds : null,
      provenance: land ? land.landscape.describe().summary : null,
    }
    return info
  })

  const body = {
    type: 'object',
    required: ['lon', 'lat'],
    additionalProperties: false,
    // An unknown key is refused by name (additionalProperties alone would drop it silently).
    propertyNames: { enum: ['lon', 'lat', 'hour', 'hours'] },
    properties: {
      lon: { type: 'number', minimum: -180, maximum: 180, description: 'longitude of the ignition, degrees' },
      lat: { type: 'number', minimum: -90, maximum: 90, description: 'latitude of the ignition, degrees' },
      hour: {
        type: 'integer',
        minimum: 0,
        maximum: hours - 1,
        description: 'forecast hour of the window the fire starts in (default: the current hour)',
      },
      hours: {
        type: 'integer',
        minimum: 1,
        maximum: WHAT_IF_MAX_HOURS,
        description: `hours to simulate (default ${WHAT_IF_DEFAULT_HOURS})`,
      },
    },
  } as const

  app.post<{ Body: { lon: number; lat: number; hour?: number; hours?: number } }>(
    '/api/fire/simulate',
    { schema: { body, querystring: noQuery } },
    async (request, reply) => {
      const t0 = performance.now()
      const { lon, lat } = request.body
      const at = now()
      const start = windowStart(at, window)
      const hour = request.body.hour ?? currentWindowHour(at, window, hours)
      const span = request.body.hours ?? WHAT_IF_DEFAULT_HOURS
      const land = await landscape(start)
      if (!land) throw noLandscape()
      const [west, south, east, north] = land.landscape.bounds
      const extent = `${round(west, 4)}…${round(east, 4)} °E, ${round(south, 4)}…${round(north, 4)} °N`
      if (lon < west || lon >= east)
        throw new HttpError(400, `lon ${lon} lies outside the fire landscape (${extent})`, 'lon')
      if (lat <= south || lat > north)
        throw new HttpError(400, `lat ${lat} lies outside the fire landscape (${extent})`, 'lat')
      const code = fuelAt(land.landscape, lon, lat)
      const model = Number.isFinite(code) ? findFuelModel(code) : undefined
      if (!model)
        throw new HttpError(
          422,
          `the point ${lon},${lat} has no fuel data (fuel code ${String(code)})`,
          'lon',
        )
      if (!isBurnable(model))
        throw new HttpError(
          422,
          `the point ${lon},${lat} lies on fuel that does not burn: ${model.code} (${model.name})`,
          'lon',
        )
      if (pool.load >= pool.maxQueued)
        throw new HttpError(429, 'too many fire simulations are waiting: try again in a moment')
      let outcome
      try {
        outcome = await pool.run(land.key, () => land.landscape.data, {
          lon,
          lat,
          hour,
          hours: span,
          cellSizeM,
        })
      } catch (e) {
        if (e instanceof FireSimRefused || e instanceof FireLandscapeError)
          throw new HttpError(422, e.message, 'lon')
        throw e
      }
      if (!outcome.ignited)
        throw new HttpError(
          422,
          `the point ${lon},${lat} does not burn (${model.code}: fuel too sparse or too wet)`,
          'lon',
        )
      const t1 = performance.now()
      const perimeter = outcome.perimeter.coordinates.length > 0 ? outcome.perimeter : null
      const inside = perimeter
        ? await whatLiesInside(app.store, perimeter)
        : {
            lines: [],
            circuits: [],
            buildings: { count: 0, sample: [] },
            customers: 0,
            criticalFacilities: [],
            counts: { lines: 0, circuits: 0, criticalFacilities: 0 },
          }
      const t2 = performance.now()
      const p = outcome.provenance
      const result: FireWhatIfResult = {
        point: [lon, lat],
        hour,
        hours: span,
        startTime: windowTimes(start, hour + 1)[hour] ?? start.toISOString(),
        isochrones: outcome.isochrones as FireWhatIfResult['isochrones'],
        perimeter,
        burnedAcres: round(outcome.burnedAcres, 1),
        provenance:
          `Computed ${p.computedAt} at ${outcome.cellSizeM} m cells from fuels ${p.fuels}; terrain ${p.terrain}; ` +
          `wind ${p.wind}${outcome.truncated ? '; the fire reached the edge of the simulated window, so the area is a lower bound' : ''}`,
        inside,
        timings: {
          simulateMs: Math.round(outcome.simulateMs),
          insideMs: Math.round(t2 - t1),
          totalMs: Math.round(performance.now() - t0),
        },
      }
      reply.header('cache-control', 'no-store')
      return result
    },
  )
}
