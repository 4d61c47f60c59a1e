// The landscape and weather options `grid` and `spread` share: LANDFIRE rasters in LANDFIRE's own
// encodings, fuel moistures, wind, read into the core's units (docs/fire.md, "LANDFIRE inputs").
import { findFuelModel, slopePercentFromDeg, FT_PER_M } from '../../src/fire'
import type { FireWeather, Landscape } from '../../src/fire/fireBehaviourGrid'
import { UsageError, numberIn, oneOf, parseMoisture, required, type OptionValues } from './cliArgs'
export { numberIn, oneOf, parseMoisture, required, type OptionValues }
import { assertSameGrid, crsOf, modelTypeOf, readRaster, type Raster } from './rasterIo'

export const LANDSCAPE_OPTIONS = {
  fuel: { type: 'string' },
  'fuel-models': { type: 'string' },
  slope: { type: 'string' },
  'slope-units': { type: 'string' },
  aspect: { type: 'string' },
  'canopy-cover': { type: 'string' },
  'canopy-height': { type: 'string' },
  'canopy-base-height': { type: 'string' },
  'canopy-bulk-density': { type: 'string' },
  moisture: { type: 'string' },
  'foliar-moisture': { type: 'string' },
  wind: { type: 'string' },
  'wind-from': { type: 'string' },
  'wind-height': { type: 'string' },
  'wind-speed-limit': { type: 'boolean' },
  out: { type: 'string' },
} as const

/** LANDFIRE fuel model products and the codes each may hold (non-burnable 91–99 in both). */
const FUEL_CODES = {
  fbfm40: (code: number) => (code >= 91 && code <= 99) || (code >= 101 && code <= 204),
  fbfm13: (code: number) => (code >= 1 && code <= 13) || (code >= 91 && code <= 99),
} as const

/** A landscape read from LANDFIRE rasters, with the grid it lies on. */
export interface LandscapeInput {
  readonly landscape: Landscape
  readonly grid: Raster
  readonly wkt: string
  /** Cell size in metres, east–west and north–south. */
  readonly cellWidthM: number
  readonly cellHeightM: number
}

const M_TO_FT = FT_PER_M

/**
 * `grid`'s landscape: its outputs carry the fuel raster's own GeoTIFF tags, so the CRS is asked of GDAL
 * (gdalsrsinfo, a process) only when the geokeys cannot tell whether it is projected.
 */
export type GridLandscapeInput = Omit<LandscapeInput, 'wkt' | 'cellWidthM' | 'cellHeightM'> & {
  readonly wkt: string | undefined
}

/** Reads and checks --fuel, --slope, --aspect and the canopy rasters; all must share the fuel's grid. */
export async function readLandscape(values: OptionValues): Promise<LandscapeInput>
export async function readLandscape(values: OptionValues, o: { crs: false }): Promise<GridLandscapeInput>
export async function readLandscape(
  values: OptionValues,
  o: { crs: boolean } = { crs: true },
): Promise<LandscapeInput | GridLandscapeInput> {
  const product = oneOf(required(values, 'fuel-models'), 'fuel-models', ['fbfm40', 'fbfm13'] as const)
  const slopeUnits = oneOf(required(values, 'slope-units'), 'slope-units', ['percent', 'degrees'] as const)
  const fuelPath = required(values, 'fuel')
  const slopePath = required(values, 'slope')
  required(values, 'aspect')
  const canopyNames = ['canopy-cover', 'canopy-height', 'canopy-base-height', 'canopy-bulk-density'] as const
  const crownNames = ['canopy-height', 'canopy-base-height', 'canopy-bulk-density'] as const
  const givenCrown = crownNames.filter((o) => typeof values[o] === 'string')
  if (givenCrown.some((o) => o !== 'canopy-height') && givenCrown.length < 3)
    throw new UsageError(
      `crown fire needs --canopy-height, --canopy-base-height and --canopy-bulk-density together (missing --${crownNames.find((o) => !givenCrown.includes(o))})`,
    )
  const fuel = await readRaster(fuelPath, 'fuel')
  const known = !o.crs && fuel.geoTags && modelTypeOf(fuel) !== undefined
  const { wkt, metresPerUnit, projected } = known
    ? { wkt: undefined, metresPerUnit: NaN, projected: modelTypeOf(fuel) === 1 }
    : await crsOf(fuelPath)
  if (!projected)
    throw new UsageError(
      `--fuel '${fuelPath}' is not in a projected coordinate reference system (LANDFIRE's are, e.g. EPSG:5070); reproject it with gdalwarp -t_srs`,
    )
  const reference = `--fuel '${fuelPath}'`
  const other = async (option: string): Promise<Float64Array | undefined> => {
    const path = values[option]
    if (typeof path !== 'string') return undefined
    const r = await readRaster(path, option)
    assertSameGrid(fuel, r, option, reference)
    return r.bands[0]
  }
  const [slope, aspect, ...canopyBands] = await Promise.all(
    (['slope', 'aspect', ...canopyNames] as const).map((name) => other(name)),
  )
  const canopy = Object.fromEntries(canopyNames.map((name, k) => [name, canopyBands[k]])) as Record<
    (typeof canopyNames)[number],
    Float64Array | undefined
  >

  const n = fuel.width * fuel.height
  const fuelBand = fuel.bands[0]!
  const missing = new Uint8Array(n)
  const fuelModel = new Int16Array(n)
  const slopePercent = new Float32Array(n)
  const aspectDeg = new Float32Array(n)
  const valid = FUEL_CODES[product]
  // Codes already checked (a raster holds a few dozen codes in its 100,000s of cells).
  const checked = new Set<number>()
  let lastCode = NaN
  for (let i = 0; i < n; i++) {
    const code = fuelBand[i]!
    const s = slope![i]!
    const a = aspect![i]!
    if (Number.isNaN(code) || code < 0 || Number.isNaN(s) || s < 0 || Number.isNaN(a)) {
      missing[i] = 1
      continue
    }
    if (
      code !== lastCode &&
      !(checked.has(code) || (valid(code) && findFuelModel(code) && checked.add(code)))
    )
      throw new UsageError(
        `--fuel '${fuelPath}' holds ${code} at column ${i % fuel.width}, row ${Math.floor(i / fuel.width)}, which is not an ${product.toUpperCase()} code in config/fuel-models.yaml`,
      )
    fuelModel[i] = lastCode = code
    if (slopeUnits === 'degrees' && s >= 90)
      throw new UsageError(
        `--slope '${slopePath}' holds ${s}°, steeper than a slope can be in degrees (is it percent?)`,
      )
    slopePercent[i] = slopeUnits === 'degrees' ? slopePercentFromDeg(s) : s
    // LANDFIRE marks flat ground with aspect −1: any aspect will do where there is no slope.
    aspectDeg[i] = a < 0 ? 0 : a
  }
  const scaled = (band: Float64Array | undefined, factor: number) => {
    if (!band) return undefined
    const out = new Float32Array(band.length)
    for (let i = 0; i < band.length; i++) {
      const v = band[i]!
      out[i] = v >= 0 ? v * factor : 0 // NaN (no data) and negative values: no canopy
    }
    return out
  }
  const landscape: Landscape = {
    width: fuel.width,
    height: fuel.height,
    fuelModel,
    slopePercent,
    aspectDeg,
    missing,
    // LANDFIRE: cover in %, heights in 0.1 m (→ ft), bulk density in 0.01 kg/m³ (→ kg/m³).
    ...(canopy['canopy-cover'] ? { canopyCoverPercent: scaled(canopy['canopy-cover'], 1)! } : {}),
    ...(canopy['canopy-height'] ? { canopyHeightFt: scaled(canopy['canopy-height'], 0.1 * M_TO_FT)! } : {}),
    ...(canopy['canopy-base-height']
      ? { canopyBaseHeightFt: scaled(canopy['canopy-base-height'], 0.1 * M_TO_FT)! }
      : {}),
    ...(canopy['canopy-bulk-density']
      ? { canopyBulkDensityKgPerM3: scaled(canopy['canopy-bulk-density'], 0.01)! }
      : {}),
  }
  return {
    landscape,
    grid: fuel,
    ...(wkt === undefined
      ? { wkt }
      : {
          wkt,
          cellWidthM: Math.abs(fuel.geoTransform[1]) * metresPerUnit,
          cellHeightM: Math.abs(fuel.geoTransform[5]) * metresPerUnit,
        }),
  }
}

/** --moisture, --foliar-moisture, --wind-height; the wind itself is the caller's (constant or gridded). */
export function readWeatherBase(
  values: OptionValues,
  landscape: Landscape,
): Omit<FireWeather, 'windSpeedMph' | 'windFromDeg'> {
  const windHeight = oneOf(required(values, 'wind-height'), 'wind-height', ['20ft', 'midflame'] as const)
  if (landscape.canopyBaseHeightFt && windHeight === 'midflame')
    throw new UsageError(
      'crown fire needs the 20-ft wind: give --wind-height 20ft with the canopy fuel rasters',
    )
  const fmc = values['foliar-moisture']
  return {
    moisture: parseMoisture(required(values, 'moisture')),
    windHeight,
    applyWindSpeedLimit: values['wind-speed-limit'] === true,
    ...(typeof fmc === 'string'
      ? { foliarMoisturePercent: numberIn(fmc, 'foliar-moisture', 30, 300, 'a foliar moisture in %') }
      : {}),
  }
}
