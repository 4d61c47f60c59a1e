import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  FT_PER_M,
  FT_PER_MIN_PER_CH_PER_H,
  crownFire,
  findFuelModel,
  slopePercentFromDeg,
  surfaceFire,
} from '../../src/fire'
import { fire, gdalInfo, readAscii, writeRaster } from './testRasters'

const dir = mkdtempSync(path.join(tmpdir(), 'h9-grid-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

// A 7 × 4 landscape of LANDFIRE products in EPSG:5070 (FBFM40 codes, slope in degrees, aspect with −1
// for flat, canopy cover %, heights in 0.1 m, bulk density in 0.01 kg/m³), one fuel cell without data.
const FUEL = [
  [102, 122, 145, 165, 183, 188, 91],
  [147, 145, 122, 98, -9999, 102, 188],
  [101, 121, 141, 161, 181, 201, 99],
  [102, 102, 102, 102, 102, 102, 147],
]
const cells = (f: (col: number, row: number) => number) =>
  FUEL.map((r, row) => r.map((_, col) => f(col, row)))
const SLOPE_DEG = cells((col, row) => (col * 5 + row * 3) % 40)
const ASPECT = cells((col, row) => (col === 0 && row === 3 ? -1 : (col * 50 + row * 20) % 360))
const COVER = cells((col) => (col === 6 ? 0 : 60))
const HEIGHT = cells(() => 200)
const BASE = cells((_, row) => [5, 20, 5, 10][row]!)
const DENSITY = cells((_, row) => [30, 30, 5, 0][row]!)
const MOISTURE = {
  oneHourPercent: 3,
  tenHourPercent: 4,
  hundredHourPercent: 5,
  liveHerbPercent: 70,
  liveWoodyPercent: 70,
}

const input = (name: string, grid: number[][], type = 'Int16') => writeRaster(dir, name, grid, { type })
const LANDSCAPE = [
  '--fuel',
  input('fuel', FUEL),
  '--fuel-models',
  'fbfm40',
  '--slope',
  input('slope', SLOPE_DEG),
  '--slope-units',
  'degrees',
  '--aspect',
  input('aspect', ASPECT),
  '--canopy-cover',
  input('cc', COVER),
  '--canopy-height',
  input('ch', HEIGHT),
  '--canopy-base-height',
  input('cbh', BASE),
  '--canopy-bulk-density',
  input('cbd', DENSITY),
]
const WEATHER = ['--moisture', '3,4,5,70,70', '--wind', '20', '--wind-from', '270', '--wind-height', '20ft']

/** The point computation for one cell: surfaceFire, then crownFire over it. */
function pointFire(col: number, row: number) {
  const fuelModel = findFuelModel(FUEL[row]![col]!)!
  const cover = COVER[row]![col]!
  const heightFt = HEIGHT[row]![col]! * 0.1 * FT_PER_M
  const slopePercent = slopePercentFromDeg(SLOPE_DEG[row]![col]!)
  const aspectDeg = Math.max(0, ASPECT[row]![col]!)
  const surface = surfaceFire({
    fuelModel,
    moisture: MOISTURE,
    windSpeedMph: 20,
    windHeight: '20ft',
    windFromDeg: 270,
    slopePercent,
    aspectDeg,
    ...(cover > 0 ? { canopy: { coverPercent: cover, heightFt } } : {}),
  })
  const crown = crownFire(
    surface,
    {
      canopyHeightFt: heightFt,
      canopyBaseHeightFt: BASE[row]![col]! * 0.1 * FT_PER_M,
      canopyBulkDensityKgPerM3: DENSITY[row]![col]! * 0.01,
      foliarMoisturePercent: 100,
    },
    MOISTURE,
    20,
    // The grid vectors the crown fire's wind and slope as FlamMap does (crownFire() with terrain).
    slopePercent > 0 ? { slopePercent, aspectDeg, windFromDeg: 270 } : undefined,
  )
  return { surface, crown }
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1e-6, Math.abs(b))

describe('npm run fire -- grid', { timeout: 120_000 }, () => {
  const out = path.join(dir, 'out')
  const run = fire(['grid', ...LANDSCAPE, ...WEATHER, '--out', out])

  it('writes the five GeoTIFFs on the input grid: same size, geotransform and CRS (gdalinfo -json)', () => {
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const fuel = gdalInfo(path.join(dir, 'fuel.tif'))
    for (const name of [
      'ros_ch_h',
      'flame_length_ft',
      'fireline_intensity_btu_ft_s',
      'fire_type',
      'max_spread_dir_deg',
    ]) {
      const info = gdalInfo(path.join(out, `${name}.tif`))
      expect(info.size, name).toEqual(fuel.size)
      expect(info.geoTransform, name).toEqual(fuel.geoTransform)
      expect(info.coordinateSystem.wkt, name).toEqual(fuel.coordinateSystem.wkt)
      expect(info.coordinateSystem.wkt).toContain('NAD83 / Conus Albers')
      expect(info.bands[0], name).toMatchObject(
        name === 'fire_type' ? { type: 'Byte', noDataValue: 255 } : { type: 'Float32', noDataValue: -9999 },
      )
    }
  })

  it('keeps a CRS that has no EPSG code (custom transverse Mercator, 10 m cells) and its grid, read back by gdalinfo', () => {
    const srs =
      '+proj=tmerc +lat_0=31 +lon_0=-106.25 +k=0.9999 +x_0=165000 +y_0=0 +ellps=GRS80 +units=m +no_defs'
    const o = { srs, originX: 512_345, originY: 3_876_540, cellM: 10 }
    const args = [
      'grid',
      ...['--fuel', writeRaster(dir, 'tm-fuel', FUEL, { ...o, type: 'Int16' }), '--fuel-models', 'fbfm40'],
      ...[
        '--slope',
        writeRaster(dir, 'tm-slope', SLOPE_DEG, { ...o, type: 'Int16' }),
        '--slope-units',
        'degrees',
      ],
      ...['--aspect', writeRaster(dir, 'tm-aspect', ASPECT, { ...o, type: 'Int16' })],
      ...WEATHER,
      ...['--out', path.join(dir, 'tm-out')],
    ]
    const tm = fire(args)
    expect(tm.stderr).toBe('')
    expect(tm.code).toBe(0)
    const fuel = gdalInfo(path.join(dir, 'tm-fuel.tif'))
    expect(fuel.coordinateSystem.wkt).toMatch(/^PROJCRS\["unknown"/) // a CRS with no code of its own
    for (const name of ['ros_ch_h', 'fire_type']) {
      const info = gdalInfo(path.join(dir, 'tm-out', `${name}.tif`))
      expect(info.size, name).toEqual(fuel.size)
      expect(info.geoTransform, name).toEqual(fuel.geoTransform)
      expect(info.coordinateSystem.wkt, name).toEqual(fuel.coordinateSystem.wkt)
    }
    // The values are the point computation's (no canopy rasters: surface fire, unsheltered).
    const ros = readAscii(path.join(dir, 'tm-out', 'ros_ch_h.tif')).values
    const surface = surfaceFire({
      fuelModel: findFuelModel(FUEL[3]![0]!)!,
      moisture: MOISTURE,
      windSpeedMph: 20,
      windHeight: '20ft',
      windFromDeg: 270,
      slopePercent: slopePercentFromDeg(SLOPE_DEG[3]![0]!),
      aspectDeg: 0,
    })
    expect(rel(ros[3]![0]!, surface.rosFtPerMin / FT_PER_MIN_PER_CH_PER_H)).toBeLessThan(1e-5)
  })

  it('each cell equals the point computation (surfaceFire, crownFire) for that cell’s inputs; non-burnable cells 0', () => {
    const ros = readAscii(path.join(out, 'ros_ch_h.tif'))
    const flame = readAscii(path.join(out, 'flame_length_ft.tif'))
    const fli = readAscii(path.join(out, 'fireline_intensity_btu_ft_s.tif'))
    const type = readAscii(path.join(out, 'fire_type.tif'))
    const dir = readAscii(path.join(out, 'max_spread_dir_deg.tif'))
    const seen = new Set<number>()
    FUEL.forEach((r, row) =>
      r.forEach((code, col) => {
        const at = `column ${col}, row ${row}, fuel ${code}`
        if (code === -9999) {
          for (const g of [ros, flame, fli, dir]) expect(g.values[row]![col], at).toBe(-9999)
          expect(type.values[row]![col], at).toBe(255)
          return
        }
        if (code < 100) {
          expect(
            [ros.values[row]![col], flame.values[row]![col], fli.values[row]![col], type.values[row]![col]],
            at,
          ).toEqual([0, 0, 0, 0])
          expect(dir.values[row]![col], at).toBe(-9999)
          return
        }
        const { surface, crown } = pointFire(col, row)
        expect(type.values[row]![col], at).toBe(crown.fireType)
        expect(rel(ros.values[row]![col]!, crown.rosFtPerMin / FT_PER_MIN_PER_CH_PER_H), at).toBeLessThan(
          1e-5,
        )
        expect(rel(flame.values[row]![col]!, crown.flameLengthFt), at).toBeLessThan(1e-5)
        expect(rel(fli.values[row]![col]!, crown.firelineIntensityBtuPerFtPerS), at).toBeLessThan(1e-5)
        // An active crown fire heads where the crown fire heads (on a slope, vectored as FlamMap).
        const heading = crown.fireType === 3 ? crown.crownMaxSpreadDirDeg : surface.maxSpreadDirDeg
        expect(Math.abs(dir.values[row]![col]! - heading), at).toBeLessThan(1e-3)
        seen.add(crown.fireType)
      }),
    )
    // The landscape holds surface, passive and active crown fire.
    expect([...seen].sort()).toEqual([1, 2, 3])
  })

  it('--wind-speed-limit caps the effective wind speed as surfaceFire({ applyWindSpeedLimit }) does', () => {
    const limited = path.join(dir, 'limited')
    const args = ['grid', ...LANDSCAPE, ...WEATHER, '--wind-speed-limit', '--out', limited]
    args[args.indexOf('--wind') + 1] = '200'
    const run = fire(args)
    expect(run.stderr).toBe('')
    const ros = readAscii(path.join(limited, 'ros_ch_h.tif')).values
    // Row 3 has no canopy bulk density, so surface fire; its last cell has no canopy cover (unsheltered).
    let exceeded = 0
    for (let col = 0; col < 7; col++) {
      const cover = COVER[3]![col]!
      const inputs = {
        fuelModel: findFuelModel(FUEL[3]![col]!)!,
        moisture: MOISTURE,
        windSpeedMph: 200,
        windHeight: '20ft' as const,
        windFromDeg: 270,
        slopePercent: slopePercentFromDeg(SLOPE_DEG[3]![col]!),
        aspectDeg: Math.max(0, ASPECT[3]![col]!),
        ...(cover > 0 ? { canopy: { coverPercent: cover, heightFt: 20 * FT_PER_M } } : {}),
      }
      const capped = surfaceFire({ ...inputs, applyWindSpeedLimit: true })
      expect(rel(ros[3]![col]!, capped.rosFtPerMin / FT_PER_MIN_PER_CH_PER_H), `column ${col}`).toBeLessThan(
        1e-5,
      )
      if (capped.windLimitExceeded) exceeded++
    }
    expect(exceeded).toBeGreaterThan(0)
  })

  it('refuses a raster that is not on the fuel grid, naming the option and the file', () => {
    const shifted = writeRaster(dir, 'slope-shifted', SLOPE_DEG, { type: 'Int16', originX: -999_970 })
    const args = ['grid', ...LANDSCAPE, ...WEATHER, '--out', path.join(dir, 'bad')]
    args[args.indexOf('--slope') + 1] = shifted
    const bad = fire(args)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^fire grid: --slope '.*slope-shifted\.tif' is not on the same grid as --fuel/)
  })

  it('refuses a fuel code that is not in the named LANDFIRE product', () => {
    const args = ['grid', ...LANDSCAPE, ...WEATHER, '--out', path.join(dir, 'bad')]
    args[args.indexOf('--fuel-models') + 1] = 'fbfm13'
    const bad = fire(args)
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(
      /^fire grid: --fuel '.*fuel\.tif' holds 102 at column 0, row 0, which is not an FBFM13 code/,
    )
  })
})
