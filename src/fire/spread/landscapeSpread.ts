// A fire over a landscape held in memory (typed arrays, as `npm run fire -- spread` reads LANDFIRE
// rasters): fire behaviour is computed per block of 32 × 32 cells only when the fire comes near it, as
// the server's simulateFire does over its lattice — both turn a block's fire behaviour into the search's
// rates with fireRates(), so the two ways cannot drift apart.
import { fireBehaviourGrid, type FireWeather, type Landscape, type PerCell } from '../fireBehaviourGrid'
import { ellipseRates, minimumTravelTime, type EllipseRates } from './minimumTravelTime'

const M_PER_FT = 0.3048
/** Side of the blocks fire behaviour is computed in (a power of two). */
export const SPREAD_BLOCK_CELLS = 32

/** Fire behaviour of every cell of `land` (a block) in the form the travel-time search reads. */
export function fireRates(land: Landscape, weather: FireWeather): EllipseRates {
  const fire = fireBehaviourGrid(land, weather)
  const head = fire.rosFtPerMin
  for (let i = 0; i < head.length; i++) head[i] = head[i]! * M_PER_FT
  return ellipseRates(
    { headRosMPerMin: head, eccentricity: fire.eccentricity, maxSpreadDirDeg: fire.maxSpreadDirDeg },
    head.length,
  )
}

/** Cells (x0, y0)…(x0 + w − 1, y0 + h − 1) of a row-major raster `width` cells wide, copied exactly. */
function cut(
  a: ArrayLike<number>,
  width: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
): Float64Array {
  const out = new Float64Array(w * h)
  for (let y = 0; y < h; y++) {
    const from = (y0 + y) * width + x0
    for (let x = 0; x < w; x++) out[y * w + x] = a[from + x]!
  }
  return out
}

const cutPerCell = (v: PerCell, width: number, x0: number, y0: number, w: number, h: number): PerCell =>
  typeof v === 'number' ? v : cut(v, width, x0, y0, w, h)

/** The block of `land` at (x0, y0), w × h cells, as its own landscape. */
export function landscapeBlock(land: Landscape, x0: number, y0: number, w: number, h: number): Landscape {
  const c = (a: ArrayLike<number>) => cut(a, land.width, x0, y0, w, h)
  const missing = new Uint8Array(w * h)
  for (let y = 0; y < h; y++)
    missing.set(land.missing.subarray((y0 + y) * land.width + x0, (y0 + y) * land.width + x0 + w), y * w)
  return {
    width: w,
    height: h,
    fuelModel: c(land.fuelModel),
    slopePercent: c(land.slopePercent),
    aspectDeg: c(land.aspectDeg),
    missing,
    ...(land.canopyCoverPercent ? { canopyCoverPercent: c(land.canopyCoverPercent) } : {}),
    ...(land.canopyHeightFt ? { canopyHeightFt: c(land.canopyHeightFt) } : {}),
    ...(land.canopyBaseHeightFt ? { canopyBaseHeightFt: c(land.canopyBaseHeightFt) } : {}),
    ...(land.canopyBulkDensityKgPerM3 ? { canopyBulkDensityKgPerM3: c(land.canopyBulkDensityKgPerM3) } : {}),
  }
}

/** Rates of block (bc, br) of `land` under `weather` (wind per cell is cut to the block too). */
export function landscapeBlockRates(
  land: Landscape,
  weather: FireWeather,
  bc: number,
  br: number,
  size = SPREAD_BLOCK_CELLS,
): EllipseRates {
  const x0 = bc * size
  const y0 = br * size
  const w = Math.min(size, land.width - x0)
  const h = Math.min(size, land.height - y0)
  return fireRates(landscapeBlock(land, x0, y0, w, h), {
    ...weather,
    windSpeedMph: cutPerCell(weather.windSpeedMph, land.width, x0, y0, w, h),
    windFromDeg: cutPerCell(weather.windFromDeg, land.width, x0, y0, w, h),
  })
}

/** Whether cell `i` of `land` burns under `weather` (its fire spreads at more than 0). */
export function cellBurns(land: Landscape, weather: FireWeather, i: number): boolean {
  const col = i % land.width
  const row = Math.floor(i / land.width)
  const size = SPREAD_BLOCK_CELLS
  const rates = landscapeBlockRates(land, weather, Math.floor(col / size), Math.floor(row / size), size)
  const w = Math.min(size, land.width - Math.floor(col / size) * size)
  return rates.inv[(row % size) * w + (col % size)]! < Infinity
}

export interface LandscapeSpreadInput {
  readonly landscape: Landscape
  /** The weather of period p (0, 1, …); the last of `periods` holds on. */
  readonly weather: (period: number) => FireWeather
  readonly periods: number
  readonly periodMinutes?: number
  /** Cell size east–west and north–south, m. */
  readonly cellWidthM: number
  readonly cellHeightM: number
  readonly ignitionCells: readonly number[]
  readonly maxMinutes: number
}

/**
 * Minutes from ignition to each cell (Infinity where the fire does not arrive within maxMinutes), with
 * fire behaviour computed per block only where the fire comes: the same arrival times as computing
 * every cell first.
 */
export function spreadOverLandscape(input: LandscapeSpreadInput): Float64Array {
  const { landscape } = input
  return minimumTravelTime({
    width: landscape.width,
    height: landscape.height,
    cellWidthM: input.cellWidthM,
    cellHeightM: input.cellHeightM,
    ignitionCells: input.ignitionCells,
    maxMinutes: input.maxMinutes,
    periods: input.periods,
    periodMinutes: input.periodMinutes ?? 60,
    blockSize: SPREAD_BLOCK_CELLS,
    blockEllipses: (p, bc, br) => landscapeBlockRates(landscape, input.weather(p), bc, br),
  })
}
