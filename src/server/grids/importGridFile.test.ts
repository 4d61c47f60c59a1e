// importGridFile and `npm run import-grid` on files written by GDAL itself (gdal_translate to
// GeoTIFF in EPSG:5070 and EPSG:32613, GRIB2 on HRRR's Lambert conformal grid, CF NetCDF with a
// time axis) from ONE known field f(lon, lat) = 3·lon + 5·lat + 700 (+ 10 per forecast hour),
// each read back from a real SQLite grid store at ten points within one cell of the truth.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fireConfig } from '../../shared/config'
import { openGridStorage } from '../store/openStoreFile'
import type { GridStorage } from '../store/AppStore'
import { sampleNearest, type GridRaster } from './gridRaster'
import { GridImportError, importableGrid, importableGridIds, importGridFile } from './importGridFile'

const run = promisify(execFile)
const A = 3
const B = 5
const C = 700
const truth = (lon: number, lat: number, hour = 0): number => A * lon + B * lat + C + 10 * hour
const HRRR_LCC =
  '+proj=lcc +lat_1=38.5 +lat_2=38.5 +lat_0=38.5 +lon_0=-97.5 +x_0=0 +y_0=0 +R=6371229 +units=m +no_defs'
const REF = Date.parse('2026-11-27T12:00:00Z')
const HOUR = 3_600_000

let dir: string
let opened: { grids: GridStorage; close(): void }
const store = () => ({ grids: opened.grids })

/** Source grid: CRS, top-left corner, cell size (CRS units), size. */
interface SourceGrid {
  srs: string
  x0: number
  y0: number
  cell: number
  nx: number
  ny: number
}

/** Longitude/latitude of every cell centre (row by row from the top), by gdaltransform. */
async function cellCentres(g: SourceGrid): Promise<[number, number][]> {
  const lines: string[] = []
  for (let j = 0; j < g.ny; j++)
    for (let i = 0; i < g.nx; i++) lines.push(`${g.x0 + (i + 0.5) * g.cell} ${g.y0 - (j + 0.5) * g.cell}`)
  const child = execFile('gdaltransform', ['-s_srs', g.srs, '-t_srs', 'EPSG:4326', '-output_xy'])
  const out: string[] = []
  child.stdout!.on('data', (d: Buffer) => out.push(d.toString()))
  child.stdin!.end(lines.join('\n') + '\n')
  await new Promise((resolve, reject) =>
    child.on('close', (code) => (code === 0 ? resolve(code) : reject(new Error(`gdaltransform ${code}`)))),
  )
  return out
    .join('')
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number])
}

/**
 * Writes the field on a source grid as raw Float32 bands behind a VRT (one band per hour), with
 * the given dataset/band metadata, then `gdal_translate`s it to `out` with `args`.
 */
async function writeField(
  name: string,
  g: SourceGrid | (Omit<SourceGrid, 'srs'> & { srs: null; lonlat: SourceGrid }),
  hours: number,
  out: string,
  args: string[],
  meta: { dataset?: Record<string, string>; band?: (hour: number) => Record<string, string> } = {},
): Promise<string> {
  const centres = await cellCentres(g.srs === null ? g.lonlat : g)
  const values = new Float32Array(g.nx * g.ny * hours)
  for (let h = 0; h < hours; h++)
    centres.forEach(([lon, lat], k) => (values[h * g.nx * g.ny + k] = truth(lon, lat, h)))
  writeFileSync(path.join(dir, `${name}.bin`), new Uint8Array(values.buffer))
  const mdi = (m: Record<string, string> | undefined) =>
    m
      ? `<Metadata>${Object.entries(m)
          .map(([k, v]) => `<MDI key="${k}">${v}</MDI>`)
          .join('')}</Metadata>`
      : ''
  const bands = Array.from(
    { length: hours },
    (
      _,
      h,
    ) => `<VRTRasterBand dataType="Float32" band="${h + 1}" subClass="VRTRawRasterBand">${mdi(meta.band?.(h))}
      <SourceFilename relativetoVRT="1">${name}.bin</SourceFilename><ImageOffset>${h * g.nx * g.ny * 4}</ImageOffset>
      <PixelOffset>4</PixelOffset><LineOffset>${g.nx * 4}</LineOffset><ByteOrder>LSB</ByteOrder></VRTRasterBand>`,
  )
  const vrt = path.join(dir, `${name}.vrt`)
  writeFileSync(
    vrt,
    `<VRTDataset rasterXSize="${g.nx}" rasterYSize="${g.ny}">${g.srs ? `<SRS>${g.srs}</SRS>` : ''}
      <GeoTransform>${g.x0}, ${g.cell}, 0, ${g.y0}, 0, ${-g.cell}</GeoTransform>${mdi(meta.dataset)}${bands.join('')}</VRTDataset>`,
  )
  await run('gdal_translate', ['-q', ...args, vrt, out])
  return out
}

/** Ten points inside the footprint of every source (central New Mexico), away from its edges. */
const POINTS: [number, number][] = [
  [-106.9, 34.1],
  [-106.2, 34.6],
  [-105.4, 35.2],
  [-104.8, 34.3],
  [-106.6, 35.7],
  [-105.9, 33.8],
  [-105.1, 35.9],
  [-104.6, 35.0],
  [-106.05, 35.05],
  [-105.55, 34.45],
]

/** Every point's value within one cell of the truth (the field's change across one cell). */
function expectWithinOneCell(g: GridRaster | undefined, hour = 0): void {
  expect(g).toBeDefined()
  const dx = (g!.east - g!.west) / g!.nx
  const dy = (g!.north - g!.south) / g!.ny
  const tolerance = Math.abs(A) * dx + Math.abs(B) * dy
  for (const [lon, lat] of POINTS) {
    const v = sampleNearest(g!, lon, lat)
    expect(Math.abs(v - truth(lon, lat, hour)), `(${lon}, ${lat}) hour ${hour}: ${v}`).toBeLessThanOrEqual(
      tolerance,
    )
  }
}

/** NetCDF metadata GDAL's netCDF driver turns into a CF time dimension (3 hours from REF). */
const NETCDF_TIME = {
  dataset: {
    NETCDF_DIM_EXTRA: '{time}',
    NETCDF_DIM_time_DEF: '{3,6}',
    NETCDF_DIM_time_VALUES: '{0,1,2}',
    'time#units': 'hours since 2026-11-27 12:00:00',
    'time#standard_name': 'time',
    'time#axis': 'T',
  },
  band: (h: number) => ({ NETCDF_DIM_time: String(h), NETCDF_VARNAME: 'wind_speed' }),
}

/** GRIB2 creation options: NWS, run REF, 10 m wind speed messages at forecast hours 1, 2, 3. */
const gribOptions = (hours: number, element = '2 1'): string[] => [
  '-of',
  'GRIB',
  '-co',
  'IDS=CENTER=7(US-NWS) SUBCENTER=0 MASTER_TABLE=2 SIGNF_REF_TIME=1(Start_of_Forecast) REF_TIME=2026-11-27T12:00:00Z PROD_STATUS=0(Operational) TYPE=1(Forecast)',
  '-co',
  'DISCIPLINE=0',
  '-co',
  'PDS_PDTN=0',
  '-co',
  'DATA_ENCODING=IEEE_FLOATING_POINT',
  ...Array.from({ length: hours }, (_, h) => [
    '-co',
    `BAND_${h + 1}_PDS_TEMPLATE_ASSEMBLED_VALUES=${element} 2 0 0 0 0 1 ${h + 1} 103 0 10 255 0 0`,
  ]).flat(),
]

const files: Record<string, string> = {}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'grids-import-'))
  opened = openGridStorage(dir)
  const albers = { srs: 'EPSG:5070', x0: -1_250_000, y0: 1_650_000, cell: 10_000, nx: 50, ny: 45 }
  const utm = { srs: 'EPSG:32613', x0: 250_000, y0: 4_050_000, cell: 10_000, nx: 40, ny: 42 }
  const lcc = { srs: HRRR_LCC, x0: -1_000_000, y0: -90_000, cell: 12_000, nx: 36, ny: 44 }
  const lonlat = { srs: 'EPSG:4326', x0: -108, y0: 37, cell: 0.1, nx: 50, ny: 50 }
  const [a, u, g, n, plain, noCrs, multi] = await Promise.all([
    writeField('albers', albers, 1, path.join(dir, 'albers.tif'), ['-of', 'GTiff']),
    writeField('utm', utm, 1, path.join(dir, 'utm.tif'), ['-of', 'COG']),
    writeField('hrrr', lcc, 3, path.join(dir, 'hrrr.grib2'), gribOptions(3)),
    writeField('cf', lonlat, 3, path.join(dir, 'cf.nc'), ['-of', 'netCDF'], NETCDF_TIME),
    writeField('plain', lonlat, 1, path.join(dir, 'plain.nc'), ['-of', 'netCDF'], {
      band: () => ({ NETCDF_VARNAME: 'slope' }),
    }),
    writeField('nocrs', { ...utm, srs: null, lonlat: utm }, 1, path.join(dir, 'nocrs.tif'), ['-of', 'GTiff']),
    writeField('multi', lonlat, 2, path.join(dir, 'multi.nc'), ['-of', 'netCDF']),
  ])
  Object.assign(files, { albers: a, utm: u, grib: g, netcdf: n, plain, noCrs, multi })
  writeFileSync(path.join(dir, 'notes.txt'), 'not a raster\n')
  files.text = path.join(dir, 'notes.txt')
}, 60_000)

afterAll(() => {
  opened?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

describe('importGridFile', () => {
  it('reprojects a GeoTIFF in EPSG:5070 (Albers) to the grid and reads back the field', async () => {
    const summary = await importGridFile(store(), 'slope', files.albers!)
    expect(summary).toMatchObject({
      grid: 'slope',
      format: 'GeoTIFF',
      crs: 'EPSG:5070',
      hours: 1,
      source: 'albers.tif',
    })
    expect(summary.refTime).toBeNull()
    expect(summary.validTimes).toEqual([])
    expectWithinOneCell(await opened.grids.grid('slope', 0))
  })

  it('fills the fire landscape grids config/fire.yaml names: canopy grids bilinear, fuel models nearest', async () => {
    const { fuelGrid, elevationGrid, crown } = fireConfig.landscape
    const canopy = [
      crown.canopyCoverGrid,
      crown.canopyHeightGrid,
      crown.canopyBaseHeightGrid,
      crown.canopyBulkDensityGrid,
    ]
    for (const id of [...canopy, elevationGrid])
      expect(importableGrid(id)).toEqual({ id, hours: 1, interpolation: 'bilinear' })
    expect(importableGrid(fuelGrid)).toEqual({ id: fuelGrid, hours: 1, interpolation: 'nearest' })
    expect(importableGridIds()).toEqual(expect.arrayContaining([...canopy, fuelGrid, elevationGrid]))
    // One read through GDAL, as LANDFIRE's canopy height comes (EPSG:5070).
    expect(await importGridFile(store(), crown.canopyHeightGrid, files.albers!)).toMatchObject({
      grid: crown.canopyHeightGrid,
      hours: 1,
      resampling: 'bilinear',
    })
  })

  it('reprojects a COG in EPSG:32613 (UTM 13N) onto a declared extent and cell size', async () => {
    const summary = await importGridFile(store(), 'population_density', files.utm!, {
      extent: [-107.5, 33.5, -104.5, 36.5],
      resolution: 0.05,
    })
    expect(summary).toMatchObject({ crs: 'EPSG:32613', nx: 60, ny: 60, west: -107.5, north: 36.5 })
    expectWithinOneCell(await opened.grids.grid('population_density', 0))
  })

  it('reads GRIB2 messages (HRRR Lambert grid) as hours ordered by valid time, with the run time', async () => {
    const summary = await importGridFile(store(), 'sustained_wind_next', files.grib!, {
      source: 'https://example.test/hrrr.t12z.wrfsfcf01.grib2',
    })
    expect(summary).toMatchObject({ format: 'GRIB2', hours: 3, variable: 'WIND:10-HTGL' })
    expect(summary.refTime).toBe(new Date(REF).toISOString())
    expect(summary.validTimes).toEqual([1, 2, 3].map((h) => new Date(REF + h * HOUR).toISOString()))
    for (let h = 0; h < 3; h++) expectWithinOneCell(await opened.grids.grid('sustained_wind_next', h), h)
    expect((await opened.grids.list()).find((g) => g.id === 'sustained_wind_next')).toMatchObject({
      source: 'https://example.test/hrrr.t12z.wrfsfcf01.grib2',
      refTime: new Date(REF).toISOString(),
      validTimes: summary.validTimes,
    })
  })

  it('reads a CF NetCDF variable with its time axis as forecast hours; --from chooses the window', async () => {
    const summary = await importGridFile(store(), 'relative_humidity_next', files.netcdf!, {
      refTime: '2026-11-27T12:00:00Z',
    })
    expect(summary).toMatchObject({ format: 'NetCDF', variable: 'wind_speed', hours: 3, crs: 'EPSG:4326' })
    expect(summary.validTimes).toEqual([0, 1, 2].map((h) => new Date(REF + h * HOUR).toISOString()))
    for (let h = 0; h < 3; h++) expectWithinOneCell(await opened.grids.grid('relative_humidity_next', h), h)
    const later = await importGridFile(store(), 'relative_humidity_next', files.netcdf!, {
      from: new Date(REF + HOUR),
    })
    expect(later.validTimes).toEqual([1, 2].map((h) => new Date(REF + h * HOUR).toISOString()))
    expectWithinOneCell(await opened.grids.grid('relative_humidity_next', 0), 1)
  })

  it('refuses a bad file with a clear error and leaves the stored grid as it was', async () => {
    await importGridFile(store(), 'wind_gust_next', files.grib!)
    const before = await opened.grids.version('wind_gust_next')
    const refused = async (
      file: string,
      grid: string,
      options: object,
      message: RegExp,
      parameter?: string,
    ) => {
      const err = await importGridFile(store(), grid, file, options).then(
        () => undefined,
        (e: unknown) => e,
      )
      expect(err).toBeInstanceOf(GridImportError)
      expect((err as GridImportError).message).toMatch(message)
      if (parameter) expect((err as GridImportError).parameter).toBe(parameter)
    }
    // Checked concurrently (each asks GDAL about the file).
    await Promise.all([
      refused(files.noCrs!, 'wind_gust_next', {}, /no coordinate reference system/, 'file'),
      refused(files.plain!, 'wind_gust_next', {}, /no time axis/, 'variable'),
      refused(
        files.multi!,
        'wind_gust_next',
        {},
        /several variables \(Band1, Band2\).*--variable/,
        'variable',
      ),
      refused(
        files.netcdf!,
        'wind_gust_next',
        { variable: 'gust' },
        /no variable 'gust'.*wind_speed/,
        'variable',
      ),
      refused(
        files.grib!,
        'wind_gust_next',
        { element: 'GUST' },
        /no 'GUST' messages.*WIND:10-HTGL/,
        'element',
      ),
      refused(files.grib!, 'slope', {}, /3 valid times; grid slope holds 1.*--from/, 'file'),
      refused(files.text!, 'wind_gust_next', {}, /not a raster file/, 'file'),
      refused(files.albers!, 'no_such_grid', {}, /unknown grid 'no_such_grid'/, 'grid'),
    ])
    expect(await opened.grids.version('wind_gust_next')).toBe(before)
  })

  it('npm run import-grid: imports a GRIB2 file and prints the valid times; a bad file exits 1', async () => {
    const cliDir = mkdtempSync(path.join(dir, 'cli-'))
    const cli = (args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'scripts/import-grid.ts', ...args, '--data-dir', cliDir], {
        env: { ...process.env, STORE: 'sqlite' },
      }).then(
        (r) => ({ code: 0, ...r }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      )
    // Both runs at once (each starts a TypeScript process).
    const [ok, bad] = await Promise.all([
      cli(['wind_gust_next', files.grib!, '--element', 'WIND:10-HTGL']),
      cli(['wind_gust_next', files.multi!]),
    ])
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toMatch(/GRIB2.*3 hour\(s\)/)
    expect(ok.stdout).toContain('2026-11-27T13:00:00.000Z')
    const grids = openGridStorage(cliDir)
    try {
      expect(grids.grids.list()).toEqual([
        expect.objectContaining({
          id: 'wind_gust_next',
          hours: 3,
          source: 'hrrr.grib2',
          refTime: new Date(REF).toISOString(),
        }),
      ])
      expectWithinOneCell(await grids.grids.grid('wind_gust_next', 2), 2)
    } finally {
      grids.close()
    }
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/^import-grid: .*several variables/m)
  })
})
