// One free-burning fire over the landscape (issue #31): minimum travel time (src/fire/spread) from
// ignition points for some hours with each hour's wind, on a window of the landscape's lattice at a cell
// size; hourly isochrones drawn with d3-contour (no GDAL), in longitude/latitude. Pure computation over
// the landscape's data: runs in worker threads. Fire behaviour is computed per block of 32 × 32 cells
// only where the fire comes, and a BlockCache shares it between fires of the same hour (a consequence
// batch), because every window is cut from the same lattice.
import { contours } from 'd3-contour'
import type { Feature, FeatureCollection, MultiPolygon } from 'geojson'
import { fireRates } from '../../fire/spread/landscapeSpread'
import { minimumTravelTime, type EllipseRates } from '../../fire/spread/minimumTravelTime'
import { FireLandscapeError, type FireLandscape, type LandscapeWindow, type WindowGrid } from './landscape'

export const DEFAULT_CELL_SIZE_M = 90
/**
 * Half-size of the first window around the ignitions (at least 16 and at most 128 cells); it doubles
 * while the fire reaches its edge, up to MAX_WINDOW_HALF_SIZE_M (and 1,024 cells).
 */
export const DEFAULT_WINDOW_HALF_SIZE_M = 3_000
export const MAX_WINDOW_HALF_SIZE_M = 60_000
const MAX_HALF_CELLS = 1024
/**
 * The first window's half-size is at least this many cells (a 3 km window at 400 m cells is 8 cells:
 * 16 keeps a consequence run's coarse windows small, 32–64 cells a side; a fire that reaches the edge
 * grows it, and a fire that does not could not have burned differently in a larger one).
 */
const MIN_HALF_CELLS = 16
const BLOCK = 32
const SHIFT = 5
const M2_PER_ACRE = 4046.8564224
const CONTOUR_MARGIN_MINUTES = 30

export interface SimulateOptions {
  /** [lon, lat] in degrees. */
  ignitions: readonly (readonly [number, number])[]
  /** Ignition time, or the forecast hour (0 = the window's first hour) it starts in. */
  start: Date | number
  /** Whole hours to spread, 1–72. */
  hours: number
  cellSizeM?: number
  windowHalfSizeM?: number
  /** Largest half-size the window may grow to (default MAX_WINDOW_HALF_SIZE_M). */
  maxWindowHalfSizeM?: number
  /** Draw hourly isochrones (default true; consequence runs need only the arrival raster). */
  isochrones?: boolean
}

export interface SimulationResult {
  /** Minutes from ignition to each window cell, NaN where the fire did not arrive within `hours`. */
  arrivalMinutes: Float32Array
  /** The window the arrival raster lies on (geoTransform: EPSG:4326). */
  grid: WindowGrid
  /** One feature per hour (area burned by then, MultiPolygon) with `hour`, `minutes` and, when the time is known, `time`. */
  isochrones: FeatureCollection<MultiPolygon>
  /** The final burned area (the last isochrone's geometry); empty when nothing burned. */
  perimeter: MultiPolygon
  burnedAcres: number
  burnedAcresByHour: number[]
  /** False when no ignition fell on a cell that burns (non-burnable fuel, outside the landscape's data). */
  ignited: boolean
  /** True when the fire still reached the window's edge after growing it (the area is a lower bound). */
  truncated: boolean
  startHour: number
  hours: number
  cellSizeM: number
  provenance: { computedAt: string; fuels: string; terrain: string; wind: string; summary: string }
}

/**
 * Fire behaviour of lattice blocks by (cell size, forecast hour, block), in the form the travel-time
 * search reads (EllipseRates), least recently used dropped; and each block's fuels and terrain, which
 * do not change with the hour, by (cell size, block).
 */
export class BlockCache {
  private readonly map = new Map<string, EllipseRates>()
  private readonly lands = new Map<string, LandscapeWindow>()
  /** Look-ups answered from the cache and blocks computed (fire behaviour; fuels and terrain). */
  readonly stats: BlockCacheStats = { hits: 0, misses: 0, landHits: 0, landMisses: 0 }
  constructor(private readonly maxBlocks = 6000) {}

  get(key: string, make: () => EllipseRates): EllipseRates {
    return lru(this.map, key, make, this.maxBlocks, this.stats, 'hits', 'misses')
  }

  land(key: string, make: () => LandscapeWindow): LandscapeWindow {
    return lru(this.lands, key, make, this.maxBlocks, this.stats, 'landHits', 'landMisses')
  }

  get size(): number {
    return this.map.size
  }
}

/** A BlockCache's counts: fire-behaviour blocks (by hour) and fuels/terrain blocks found or computed. */
export interface BlockCacheStats {
  hits: number
  misses: number
  landHits: number
  landMisses: number
}

function lru<T>(
  map: Map<string, T>,
  key: string,
  make: () => T,
  max: number,
  stats: BlockCacheStats,
  hit: 'hits' | 'landHits',
  miss: 'misses' | 'landMisses',
): T {
  const found = map.get(key)
  if (found !== undefined) {
    map.delete(key)
    map.set(key, found)
    stats[hit]++
    return found
  }
  stats[miss]++
  const made = make()
  map.set(key, made)
  if (map.size > max) map.delete(map.keys().next().value!)
  return made
}

const lattices = new WeakMap<FireLandscape, Map<number, WindowGrid>>()

/** The landscape's lattice at a cell size: every window is a block-aligned part of it. */
export function fireLattice(landscape: FireLandscape, cellSizeM: number): WindowGrid {
  let byCell = lattices.get(landscape)
  if (!byCell) lattices.set(landscape, (byCell = new Map()))
  let g = byCell.get(cellSizeM)
  if (!g) {
    const [west, south, east, north] = landscape.bounds
    g = landscape.grid({ bbox: [west, south, east, north], cellSizeM })
    byCell.set(cellSizeM, g)
  }
  return g
}

/** Forecast hour of a start: a number is taken as given, a Date through the landscape's window start. */
export function startHourOf(landscape: FireLandscape, start: Date | number): number {
  return typeof start === 'number' ? Math.floor(start) : landscape.hourAt(start)
}

/** Simulates one fire. Throws FireLandscapeError for an ignition outside the landscape or bad options. */
export function simulateFire(
  landscape: FireLandscape,
  options: SimulateOptions,
  cache: BlockCache = new BlockCache(),
): SimulationResult {
  const hours = options.hours
  if (!Number.isInteger(hours) || hours < 1 || hours > 72)
    throw new FireLandscapeError('hours must be a whole number from 1 to 72')
  if (options.ignitions.length === 0) throw new FireLandscapeError('at least one ignition is needed')
  const cellSizeM = options.cellSizeM ?? DEFAULT_CELL_SIZE_M
  if (!(cellSizeM >= 10 && cellSizeM <= 2000)) throw new FireLandscapeError('cellSizeM must be 10–2000 m')
  const lattice = fireLattice(landscape, cellSizeM)
  const startHour = startHourOf(landscape, options.start)
  const cells = options.ignitions.map(([lon, lat]) => {
    const col = Math.floor((lon - lattice.west) / lattice.dLon)
    const row = Math.floor((lattice.north - lat) / lattice.dLat)
    if (!(col >= 0 && row >= 0 && col < lattice.width && row < lattice.height))
      throw new FireLandscapeError(`ignition ${lon},${lat} lies outside the fire landscape`)
    return [col, row] as const
  })
  const maxHalf = Math.min(
    MAX_HALF_CELLS,
    Math.max(32, Math.round((options.maxWindowHalfSizeM ?? MAX_WINDOW_HALF_SIZE_M) / cellSizeM)),
  )
  let half = Math.min(
    maxHalf,
    Math.max(
      MIN_HALF_CELLS,
      Math.min(128, Math.round((options.windowHalfSizeM ?? DEFAULT_WINDOW_HALF_SIZE_M) / cellSizeM)),
    ),
  )
  for (;;) {
    // With isochrones, the fire runs a little past the end so that the last contour is drawn between
    // arrival times on both sides of it, not at the centres of the last burned cells.
    const extra = options.isochrones === false ? 0 : CONTOUR_MARGIN_MINUTES
    const run = spread(landscape, lattice, cells, half, startHour, hours, extra, cellSizeM, cache)
    if (!run.reachedEdge || half >= maxHalf || run.wholeLattice)
      return finish(
        landscape,
        run,
        options,
        startHour,
        hours,
        cellSizeM,
        run.reachedEdge && !run.wholeLattice,
      )
    half = Math.min(maxHalf, half * 2)
  }
}

interface SpreadRun {
  arrival: Float64Array
  grid: WindowGrid
  ignited: boolean
  reachedEdge: boolean
  wholeLattice: boolean
}

function spread(
  landscape: FireLandscape,
  lattice: WindowGrid,
  cells: readonly (readonly [number, number])[],
  half: number,
  startHour: number,
  hours: number,
  extraMinutes: number,
  cellSizeM: number,
  cache: BlockCache,
): SpreadRun {
  const cols = cells.map((c) => c[0])
  const rows = cells.map((c) => c[1])
  // Block-aligned window, clipped to the lattice.
  const c0 = Math.max(0, ((Math.min(...cols) - half) >> SHIFT) << SHIFT)
  const r0 = Math.max(0, ((Math.min(...rows) - half) >> SHIFT) << SHIFT)
  const c1 = Math.min(lattice.width, (((Math.max(...cols) + half) >> SHIFT) + 1) << SHIFT)
  const r1 = Math.min(lattice.height, (((Math.max(...rows) + half) >> SHIFT) + 1) << SHIFT)
  const width = c1 - c0
  const height = r1 - r0
  const grid: WindowGrid = {
    ...lattice,
    width,
    height,
    west: lattice.west + c0 * lattice.dLon,
    north: lattice.north - r0 * lattice.dLat,
    geoTransform: [
      lattice.west + c0 * lattice.dLon,
      lattice.dLon,
      0,
      lattice.north - r0 * lattice.dLat,
      0,
      -lattice.dLat,
    ],
  }
  const bc0 = c0 >> SHIFT
  const br0 = r0 >> SHIFT
  const moisture = landscape.data.moisture
  const blockEllipses = (period: number, bc: number, br: number): EllipseRates => {
    const hour = startHour + period
    const lbc = bc0 + bc
    const lbr = br0 + br
    const windHour = Math.min(Math.max(0, landscape.windHours - 1), Math.max(0, hour))
    return cache.get(`${cellSizeM}|${windHour}|${lbc}|${lbr}`, () => {
      const x = lbc << SHIFT
      const y = lbr << SHIFT
      const w = Math.min(BLOCK, lattice.width - x)
      const h = Math.min(BLOCK, lattice.height - y)
      const land = cache.land(`${cellSizeM}|${lbc}|${lbr}`, () => landscape.cells(lattice, x, y, w, h))
      const wind = landscape.wind(lattice, windHour, x, y, w, h)
      // The same conversion as `npm run fire -- spread` (src/fire/spread/landscapeSpread.ts).
      return fireRates(land, { moisture, ...wind, windHeight: '20ft' })
    })
  }
  const ignitionCells = cells.map(([c, r]) => (r - r0) * width + (c - c0))
  const arrival = minimumTravelTime({
    width,
    height,
    cellWidthM: cellSizeM,
    cellHeightM: cellSizeM,
    ignitionCells,
    maxMinutes: hours * 60 + extraMinutes,
    blockEllipses,
    blockSize: BLOCK,
    periods: hours,
    periodMinutes: 60,
  })
  const ignited = ignitionCells.some((i) => arrival[i] === 0)
  const end = hours * 60
  let reachedEdge = false
  for (let c = 0; c < width && !reachedEdge; c++)
    if (arrival[c]! <= end || arrival[(height - 1) * width + c]! <= end) reachedEdge = true
  for (let r = 0; r < height && !reachedEdge; r++)
    if (arrival[r * width]! <= end || arrival[r * width + width - 1]! <= end) reachedEdge = true
  // An edge that is the lattice's own edge cannot grow.
  const wholeLattice = c0 === 0 && r0 === 0 && c1 === lattice.width && r1 === lattice.height
  return { arrival, grid, ignited, reachedEdge, wholeLattice }
}

function finish(
  landscape: FireLandscape,
  run: SpreadRun,
  options: SimulateOptions,
  startHour: number,
  hours: number,
  cellSizeM: number,
  truncated: boolean,
): SimulationResult {
  const { arrival, grid } = run
  const n = arrival.length
  const arrivalMinutes = new Float32Array(n)
  const counts = new Array<number>(hours).fill(0)
  const end = hours * 60
  for (let i = 0; i < n; i++) {
    const t = arrival[i]!
    if (t <= end) {
      arrivalMinutes[i] = t
      counts[Math.min(hours - 1, Math.max(0, Math.ceil(t / 60) - 1))]! += 1
    } else arrivalMinutes[i] = NaN
  }
  const cellAcres = (cellSizeM * cellSizeM) / M2_PER_ACRE
  const burnedAcresByHour: number[] = []
  let total = 0
  for (const k of counts) burnedAcresByHour.push((total += k) * cellAcres)
  const startTime =
    typeof options.start === 'number'
      ? landscape.data.windowStart
        ? Date.parse(landscape.data.windowStart) + options.start * 3_600_000
        : undefined
      : options.start.getTime()
  const isochrones =
    options.isochrones === false || total === 0 ? [] : isochronePolygons(arrival, grid, hours, startTime)
  const perimeter: MultiPolygon = isochrones.at(-1)?.geometry ?? { type: 'MultiPolygon', coordinates: [] }
  const d = landscape.describe()
  return {
    arrivalMinutes,
    grid,
    isochrones: { type: 'FeatureCollection', features: isochrones },
    perimeter,
    burnedAcres: total * cellAcres,
    burnedAcresByHour,
    ignited: run.ignited,
    truncated,
    startHour,
    hours,
    cellSizeM,
    provenance: { computedAt: new Date().toISOString(), ...d },
  }
}

/**
 * The area burned by each hour, as lon/lat MultiPolygons (d3-contour over the arrival field; cells the
 * fire did not reach count as reached just after the field's last time).
 */
export function isochronePolygons(
  arrivalMinutes: ArrayLike<number>,
  grid: WindowGrid,
  hours: number,
  startTime?: number,
): Feature<MultiPolygon>[] {
  // Contour "burned by t" as a level of −arrival: cells that burned earlier are higher. Pad one cell of
  // unburned around the field so every polygon closes inside it.
  const w = grid.width + 2
  const h = grid.height + 2
  let last = hours * 60
  for (let i = 0; i < arrivalMinutes.length; i++) {
    const t = arrivalMinutes[i]!
    if (t < Infinity && t > last) last = t
  }
  const field = new Float64Array(w * h).fill(-(last + 1))
  for (let r = 0; r < grid.height; r++)
    for (let c = 0; c < grid.width; c++) {
      const t = arrivalMinutes[r * grid.width + c]!
      if (t < Infinity) field[(r + 1) * w + c + 1] = -t
    }
  const levels = Array.from({ length: hours }, (_, k) => -(k + 1) * 60)
  const drawn = contours().size([w, h]).thresholds(levels)(Array.from(field))
  const out: Feature<MultiPolygon>[] = []
  for (let k = hours - 1; k >= 0; k--) {
    const m = drawn.find((g) => g.value === levels[k])
    if (!m) continue
    // d3-contour's coordinates are in cell units from the padded grid's corner; cell centres sit at +0.5.
    const coordinates = m.coordinates.map((poly) =>
      poly.map((ring) =>
        ring.map(([x, y]) => [
          round7(grid.west + (x! - 1) * grid.dLon),
          round7(grid.north - (y! - 1) * grid.dLat),
        ]),
      ),
    )
    const minutes = (k + 1) * 60
    out.push({
      type: 'Feature',
      properties: {
        hour: k + 1,
        minutes,
        ...(startTime !== undefined ? { time: new Date(startTime + minutes * 60_000).toISOString() } : {}),
      },
      geometry: { type: 'MultiPolygon', coordinates },
    })
  }
  return out.reverse()
}

const round7 = (v: number) => Math.round(v * 1e7) / 1e7
