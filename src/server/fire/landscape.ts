// The fire landscape of the server (issue #31): fuels, terrain and hourly winds from the store's grids,
// cut into windows at a cell size for the fire-behaviour core (src/fire). `openFireLandscape` reads the
// grids once; the `FireLandscape` it answers is plain data (typed arrays), so it can be handed to worker
// threads (`fireLandscape(landscape.data)` there) and cut windows with no store.
import type { FuelMoisturePercent } from '../../fire/fuelbed'
import type { Landscape } from '../../fire/fireBehaviourGrid'
import type { GridStorage } from '../store/AppStore'
import type { GridRaster } from '../grids/gridRaster'
import { WIND_U_GRID, WIND_V_GRID } from '../grids/windGrid'

/** The grids the demo seeds (src/demo/grids/seedGrids.ts) and the consequence run reads by default. */
export const FUEL_MODEL_GRID = 'fuel_model'
export const ELEVATION_GRID = 'elevation'

/** Which grids make the landscape, and the fire weather beside them. */
export interface FireLandscapeOptions {
  /** FBFM40 (or FBFM13) fuel model codes, one band. */
  fuelGrid: string
  /** Elevation in metres (slope and aspect are computed from it at the window's cell size)… */
  elevationGrid?: string
  /** …or slope (degrees) and aspect (degrees the slope faces) grids. */
  slopeGrid?: string
  aspectGrid?: string
  /** Canopy cover (%) and height (m), optional: they shelter the wind. */
  canopyCoverGrid?: string
  canopyHeightGrid?: string
  /** Canopy base height (m) and bulk density (kg/m³), optional: with cover and height the fire can crown. */
  canopyBaseHeightGrid?: string
  canopyBulkDensityGrid?: string
  /** Foliar moisture content for crown fire initiation, % (default 100, FlamMap's). */
  foliarMoisturePercent?: number
  /** Hourly wind components, mph towards east and north (10 m); hour n = band n of the window. */
  windUGrid?: string
  windVGrid?: string
  /** 20-ft wind over the grids' 10-m wind (default 0.87, the log-profile ratio FARSITE users apply, 1/1.15). */
  windTo20ftFactor?: number
  /** Dead and live fuel moistures, %. */
  moisture?: FuelMoisturePercent
  /** When the grids' hour 0 is valid (the forecast window's start). */
  windowStart?: Date
  /**
   * Reads the first n forecast hours of wind only (a consequence run's fires burn in hours 0 to its
   * last start + its hours; a forecast can hold 168); default every stored hour.
   */
  windHoursRead?: number
}

/** Fuel moistures of a dry summer afternoon ("D2L2"-like: 1-h 3 %, live herbaceous 60 %). */
export const DEFAULT_MOISTURE: FuelMoisturePercent = {
  oneHourPercent: 3,
  tenHourPercent: 4,
  hundredHourPercent: 5,
  liveHerbPercent: 60,
  liveWoodyPercent: 90,
}

export const DEFAULT_WIND_TO_20FT = 0.87

/** Provenance of one input grid: its id, stored version and source. */
export interface GridProvenance {
  id: string
  version: string
  source: string
}

/** Everything a landscape holds: plain data (structured-cloneable, for worker threads). */
export interface FireLandscapeData {
  fuel: GridRaster
  elevation?: GridRaster
  slope?: GridRaster
  aspect?: GridRaster
  canopyCover?: GridRaster
  canopyHeight?: GridRaster
  canopyBaseHeight?: GridRaster
  canopyBulkDensity?: GridRaster
  /** Foliar moisture for crown fire, % (when the canopy can crown). */
  foliarMoisturePercent?: number
  /** windU[h], windV[h]: forecast hour h, mph (10 m). Empty: no wind. */
  windU: GridRaster[]
  windV: GridRaster[]
  windTo20ftFactor: number
  moisture: FuelMoisturePercent
  /** ISO time of forecast hour 0, when known. */
  windowStart?: string
  provenance: {
    fuel: GridProvenance
    terrain: GridProvenance[]
    wind: GridProvenance[]
    canopy: GridProvenance[]
  }
}

/** A window: a regular longitude/latitude grid of nearly square cells of `cellSizeM`. */
export interface WindowGrid {
  readonly width: number
  readonly height: number
  readonly cellSizeM: number
  /** Cell size in degrees east–west and north–south. */
  readonly dLon: number
  readonly dLat: number
  /** North-west corner. */
  readonly west: number
  readonly north: number
  /** GDAL geotransform [west, dLon, 0, north, 0, -dLat] (EPSG:4326). */
  readonly geoTransform: readonly [number, number, number, number, number, number]
}

/** A window of the landscape: the core's Landscape (fuel codes, slope %, aspect) on a WindowGrid. */
export interface LandscapeWindow extends WindowGrid, Landscape {
  readonly fuelModel: Uint16Array
  readonly slopePercent: Float32Array
  readonly aspectDeg: Float32Array
  readonly slopeDeg: Float32Array
  readonly missing: Uint8Array
}

/**
 * The fire weather of one hour on a window beside the fuel moistures: the 20-ft wind speed (mph) and
 * the direction it blows from (degrees), and the foliar moisture when the landscape can crown — so a
 * caller hands it to the core as it is (`fireBehaviourGrid(land, { moisture, ...wind })`).
 */
export interface WindowWind {
  readonly windSpeedMph: Float32Array
  readonly windFromDeg: Float32Array
  readonly foliarMoisturePercent?: number
}

export interface WindowSpec {
  /** A centre point and half-size in metres… */
  centre?: readonly [number, number]
  halfSizeM?: number
  /** …or a bbox [west, south, east, north] in degrees. */
  bbox?: readonly [number, number, number, number]
  cellSizeM: number
}

const M_PER_DEG_LAT = 110_574
const M_PER_DEG_LON_EQUATOR = 111_320
const RAD = Math.PI / 180

export class FireLandscapeError extends Error {}

/** The landscape over its data: windows, winds, provenance. */
export class FireLandscape {
  constructor(readonly data: FireLandscapeData) {}

  /** Forecast hours of wind held (0 when there is no wind grid). */
  get windHours(): number {
    return this.data.windU.length
  }

  /** [west, south, east, north] of the fuel grid. */
  get bounds(): [number, number, number, number] {
    const f = this.data.fuel
    return [f.west, f.south, f.east, f.north]
  }

  /** The grid of a window: around a centre (half-size in m) or over a bbox, at a cell size in m. */
  grid(spec: WindowSpec): WindowGrid {
    const cellSizeM = spec.cellSizeM
    if (!(cellSizeM > 0)) throw new FireLandscapeError('cellSizeM must be a positive number of metres')
    let bbox = spec.bbox
    if (!bbox) {
      if (!spec.centre || !(spec.halfSizeM! > 0))
        throw new FireLandscapeError('a window needs a bbox, or a centre and halfSizeM')
      const [lon, lat] = spec.centre
      const hx = spec.halfSizeM! / (M_PER_DEG_LON_EQUATOR * Math.cos(lat * RAD))
      const hy = spec.halfSizeM! / M_PER_DEG_LAT
      bbox = [lon - hx, lat - hy, lon + hx, lat + hy]
    }
    const [w, s, e, n] = bbox
    if (!(e > w && n > s)) throw new FireLandscapeError('the window bbox is empty')
    const midLat = (s + n) / 2
    const dLon = cellSizeM / (M_PER_DEG_LON_EQUATOR * Math.cos(midLat * RAD))
    const dLat = cellSizeM / M_PER_DEG_LAT
    const width = Math.max(1, Math.round((e - w) / dLon))
    const height = Math.max(1, Math.round((n - s) / dLat))
    return windowGrid(w, n, width, height, cellSizeM, dLon, dLat)
  }

  /** Fuels, slope and aspect (and canopy when configured) of a window. */
  window(spec: WindowSpec | WindowGrid): LandscapeWindow {
    const g = 'geoTransform' in spec ? spec : this.grid(spec)
    return this.cells(g, 0, 0, g.width, g.height)
  }

  /** The landscape of a sub-rectangle of a window grid (col0, row0, cols × rows), as its own window. */
  cells(g: WindowGrid, col0: number, row0: number, cols: number, rows: number): LandscapeWindow {
    const d = this.data
    const sub = windowGrid(
      g.west + col0 * g.dLon,
      g.north - row0 * g.dLat,
      cols,
      rows,
      g.cellSizeM,
      g.dLon,
      g.dLat,
    )
    const n = cols * rows
    const fuelModel = new Uint16Array(n)
    const slopeDeg = new Float32Array(n)
    const slopePercent = new Float32Array(n)
    const aspectDeg = new Float32Array(n)
    const missing = new Uint8Array(n)
    const cover = d.canopyCover ? new Float32Array(n) : undefined
    const heightFt = d.canopyHeight ? new Float32Array(n) : undefined
    const crowns = !!(d.canopyHeight && d.canopyBaseHeight && d.canopyBulkDensity)
    const baseFt = crowns ? new Float32Array(n) : undefined
    const bulk = crowns ? new Float32Array(n) : undefined
    // Elevation with a one-cell margin, for central differences.
    const ew = cols + 2
    const elev = d.elevation ? new Float32Array(ew * (rows + 2)) : undefined
    if (elev && d.elevation)
      for (let r = -1; r <= rows; r++)
        for (let c = -1; c <= cols; c++) {
          const lon = sub.west + (c + 0.5) * sub.dLon
          const lat = sub.north - (r + 0.5) * sub.dLat
          elev[(r + 1) * ew + c + 1] = bilinear(d.elevation, lon, lat)
        }
    for (let r = 0; r < rows; r++) {
      const lat = sub.north - (r + 0.5) * sub.dLat
      for (let c = 0; c < cols; c++) {
        const lon = sub.west + (c + 0.5) * sub.dLon
        const i = r * cols + c
        const code = nearest(d.fuel, lon, lat)
        if (!Number.isFinite(code)) {
          missing[i] = 1
          continue
        }
        fuelModel[i] = code
        let slope: number
        let aspect: number
        if (elev) {
          const k = (r + 1) * ew + c + 1
          const z = elev[k]!
          const east = elev[k + 1]!
          const west = elev[k - 1]!
          const north = elev[k - ew]!
          const south = elev[k + ew]!
          const gx =
            (pick(east, z) - pick(west, z)) /
            ((Number.isNaN(east) || Number.isNaN(west) ? 1 : 2) * g.cellSizeM)
          const gy =
            (pick(north, z) - pick(south, z)) /
            ((Number.isNaN(north) || Number.isNaN(south) ? 1 : 2) * g.cellSizeM)
          if (Number.isNaN(z)) {
            slope = 0
            aspect = 0
          } else {
            slope = Math.atan(Math.hypot(gx, gy)) / RAD
            // The slope faces down the gradient: (−gx, −gy) east/north.
            aspect = gx === 0 && gy === 0 ? 0 : (Math.atan2(-gx, -gy) / RAD + 360) % 360
          }
        } else {
          slope = d.slope ? nearest(d.slope, lon, lat) : 0
          aspect = d.aspect ? nearest(d.aspect, lon, lat) : 0
          if (!Number.isFinite(slope)) slope = 0
          if (!Number.isFinite(aspect) || aspect < 0) aspect = 0
        }
        slopeDeg[i] = slope
        slopePercent[i] = Math.tan(Math.min(89, slope) * RAD) * 100
        aspectDeg[i] = aspect
        if (cover && d.canopyCover) cover[i] = zeroIfNaN(nearest(d.canopyCover, lon, lat))
        if (heightFt && d.canopyHeight) heightFt[i] = zeroIfNaN(nearest(d.canopyHeight, lon, lat)) / 0.3048
        if (baseFt && d.canopyBaseHeight)
          baseFt[i] = zeroIfNaN(nearest(d.canopyBaseHeight, lon, lat)) / 0.3048
        if (bulk && d.canopyBulkDensity) bulk[i] = zeroIfNaN(nearest(d.canopyBulkDensity, lon, lat))
      }
    }
    return {
      ...sub,
      fuelModel,
      slopeDeg,
      slopePercent,
      aspectDeg,
      missing,
      ...(cover ? { canopyCoverPercent: cover } : {}),
      ...(heightFt ? { canopyHeightFt: heightFt } : {}),
      ...(baseFt ? { canopyBaseHeightFt: baseFt } : {}),
      ...(bulk ? { canopyBulkDensityKgPerM3: bulk } : {}),
    }
  }

  /**
   * The 20-ft wind of forecast hour `hour` on a window (or a sub-rectangle of it): bilinear between
   * the wind grid's cells; the last hour holds beyond the window; no wind grid gives calm air.
   */
  wind(g: WindowGrid, hour: number, col0 = 0, row0 = 0, cols = g.width, rows = g.height): WindowWind {
    const n = cols * rows
    const windSpeedMph = new Float32Array(n)
    const windFromDeg = new Float32Array(n)
    const hours = this.windHours
    const fmc = this.data.foliarMoisturePercent
    const foliar = fmc ? { foliarMoisturePercent: fmc } : {}
    if (hours === 0) return { windSpeedMph, windFromDeg, ...foliar }
    const h = Math.min(hours - 1, Math.max(0, Math.floor(hour)))
    const u = this.data.windU[h]!
    const v = this.data.windV[h]!
    const k = this.data.windTo20ftFactor
    for (let r = 0; r < rows; r++) {
      const lat = g.north - (row0 + r + 0.5) * g.dLat
      for (let c = 0; c < cols; c++) {
        const lon = g.west + (col0 + c + 0.5) * g.dLon
        const ue = zeroIfNaN(bilinear(u, lon, lat))
        const vn = zeroIfNaN(bilinear(v, lon, lat))
        const i = r * cols + c
        windSpeedMph[i] = Math.hypot(ue, vn) * k
        // Blowing towards (ue, vn): from the opposite direction.
        windFromDeg[i] = (Math.atan2(-ue, -vn) / RAD + 360) % 360
      }
    }
    return { windSpeedMph, windFromDeg, ...foliar }
  }

  /** The forecast hour (band) an instant falls in, when the window start is known. */
  hourAt(time: Date): number {
    const start = this.data.windowStart
    if (!start)
      throw new FireLandscapeError('the landscape has no forecast window start: give a forecast hour')
    return Math.floor((time.getTime() - Date.parse(start)) / 3_600_000)
  }

  /** Provenance for popups and results: which fuels, terrain and wind run. */
  describe(): { fuels: string; terrain: string; wind: string; canopy: string; summary: string } {
    const p = this.data.provenance
    const one = (g: GridProvenance) => `${g.id} (${g.source}, version ${g.version})`
    const fuels = one(p.fuel)
    const terrain = p.terrain.length > 0 ? p.terrain.map(one).join(', ') : 'flat (no terrain grid)'
    const wind =
      p.wind.length > 0
        ? `${p.wind.map(one).join(', ')}${this.data.windowStart ? `, hour 0 at ${this.data.windowStart}` : ''}`
        : 'calm (no wind grid)'
    const canopy =
      p.canopy.length === 0
        ? 'none (surface fire only)'
        : `${p.canopy.map(one).join(', ')}${this.data.canopyBulkDensity ? ', crown fire' : ', wind shelter only'}`
    return {
      fuels,
      terrain,
      wind,
      canopy,
      summary: `fuels ${fuels}; terrain ${terrain}; wind ${wind}; canopy ${canopy}`,
    }
  }
}

/** The landscape over data already read (e.g. in a worker thread). */
export function fireLandscape(data: FireLandscapeData): FireLandscape {
  return new FireLandscape(data)
}

/** Reads the configured grids from the store. Throws FireLandscapeError naming a grid that is missing. */
export async function openFireLandscape(
  store: { grids: Pick<GridStorage, 'grid' | 'list'> },
  options: FireLandscapeOptions,
): Promise<FireLandscape> {
  const summaries = new Map((await store.grids.list()).map((s) => [s.id, s]))
  const provenance = (id: string): GridProvenance => {
    const s = summaries.get(id)
    return { id, version: s?.version ?? '', source: s?.source ?? '' }
  }
  const read = async (id: string, hour = 0): Promise<GridRaster> => {
    const g = await store.grids.grid(id, hour)
    if (!g) throw new FireLandscapeError(`grid ${id} is not stored (fire landscape)`)
    const { nx, ny, west, south, east, north, data } = g
    return { nx, ny, west, south, east, north, data }
  }
  const optional = async (id: string | undefined) => (id && summaries.has(id) ? read(id) : undefined)
  const fuel = await read(options.fuelGrid)
  const elevation = await optional(options.elevationGrid)
  const slope = elevation ? undefined : await optional(options.slopeGrid)
  const aspect = elevation ? undefined : await optional(options.aspectGrid)
  const canopyCover = await optional(options.canopyCoverGrid)
  const canopyHeight = canopyCover ? await optional(options.canopyHeightGrid) : undefined
  // Crown fire needs all four canopy grids.
  const canopyBaseHeight = canopyHeight ? await optional(options.canopyBaseHeightGrid) : undefined
  const canopyBulkDensity = canopyBaseHeight ? await optional(options.canopyBulkDensityGrid) : undefined
  const crowns = !!(canopyBaseHeight && canopyBulkDensity)
  const uId = options.windUGrid ?? WIND_U_GRID
  const vId = options.windVGrid ?? WIND_V_GRID
  const windU: GridRaster[] = []
  const windV: GridRaster[] = []
  if (summaries.has(uId) && summaries.has(vId)) {
    const hours = Math.min(
      summaries.get(uId)!.hours,
      summaries.get(vId)!.hours,
      options.windHoursRead ?? Infinity,
    )
    for (let h = 0; h < hours; h++) {
      windU.push(await read(uId, h))
      windV.push(await read(vId, h))
    }
  }
  const terrainIds = elevation
    ? [options.elevationGrid!]
    : [slope ? options.slopeGrid! : '', aspect ? options.aspectGrid! : ''].filter(Boolean)
  return new FireLandscape({
    fuel,
    ...(elevation ? { elevation } : {}),
    ...(slope ? { slope } : {}),
    ...(aspect ? { aspect } : {}),
    ...(canopyCover ? { canopyCover } : {}),
    ...(canopyHeight ? { canopyHeight } : {}),
    ...(crowns ? { canopyBaseHeight, canopyBulkDensity } : {}),
    ...(crowns && options.foliarMoisturePercent
      ? { foliarMoisturePercent: options.foliarMoisturePercent }
      : {}),
    windU,
    windV,
    windTo20ftFactor: options.windTo20ftFactor ?? DEFAULT_WIND_TO_20FT,
    moisture: options.moisture ?? DEFAULT_MOISTURE,
    ...(options.windowStart ? { windowStart: options.windowStart.toISOString() } : {}),
    provenance: {
      fuel: provenance(options.fuelGrid),
      terrain: terrainIds.map(provenance),
      wind: windU.length > 0 ? [provenance(uId), provenance(vId)] : [],
      canopy: [
        canopyCover ? options.canopyCoverGrid! : '',
        canopyHeight ? options.canopyHeightGrid! : '',
        crowns ? options.canopyBaseHeightGrid! : '',
        crowns ? options.canopyBulkDensityGrid! : '',
      ]
        .filter(Boolean)
        .map(provenance),
    },
  })
}

function windowGrid(
  west: number,
  north: number,
  width: number,
  height: number,
  cellSizeM: number,
  dLon: number,
  dLat: number,
): WindowGrid {
  return { width, height, cellSizeM, dLon, dLat, west, north, geoTransform: [west, dLon, 0, north, 0, -dLat] }
}

const zeroIfNaN = (v: number) => (Number.isFinite(v) ? v : 0)
const pick = (v: number, fallback: number) => (Number.isNaN(v) ? fallback : v)

/** Nearest-cell value, NaN outside the grid. */
function nearest(g: GridRaster, lon: number, lat: number): number {
  const fx = ((lon - g.west) / (g.east - g.west)) * g.nx
  const fy = ((g.north - lat) / (g.north - g.south)) * g.ny
  if (!(fx >= 0 && fy >= 0 && fx < g.nx && fy < g.ny)) return NaN
  return g.data[Math.floor(fy) * g.nx + Math.floor(fx)]!
}

/** Bilinear between cell centres (edge cells clamp); NaN outside the grid or beside no data. */
function bilinear(g: GridRaster, lon: number, lat: number): number {
  const fx = ((lon - g.west) / (g.east - g.west)) * g.nx - 0.5
  const fy = ((g.north - lat) / (g.north - g.south)) * g.ny - 0.5
  if (!(fx >= -0.5 && fy >= -0.5 && fx < g.nx - 0.5 && fy < g.ny - 0.5)) return NaN
  const x = Math.min(g.nx - 1, Math.max(0, fx))
  const y = Math.min(g.ny - 1, Math.max(0, fy))
  const i0 = Math.min(g.nx - 2, Math.floor(x))
  const j0 = Math.min(g.ny - 2, Math.floor(y))
  if (i0 < 0 || j0 < 0) return g.data[Math.round(y) * g.nx + Math.round(x)]!
  const tx = x - i0
  const ty = y - j0
  const a = g.data[j0 * g.nx + i0]!
  const b = g.data[j0 * g.nx + i0 + 1]!
  const c = g.data[(j0 + 1) * g.nx + i0]!
  const d = g.data[(j0 + 1) * g.nx + i0 + 1]!
  return (a * (1 - tx) + b * tx) * (1 - ty) + (c * (1 - tx) + d * tx) * ty
}
