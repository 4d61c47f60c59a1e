// Test rasters for the fire commands, made and read with GDAL's own tools: an ASCII grid written here,
// turned into a GeoTIFF in EPSG:5070 by gdal_translate; outputs read back with gdalinfo -json and
// gdal_translate to an ASCII grid.
import { execFileSync, spawnSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

/** The real command line, as `npm run fire --` runs it. */
export function fire(args: readonly string[]) {
  const tsx = path.join(root, 'node_modules/.bin/tsx')
  const run = spawnSync(tsx, ['scripts/fire.ts', ...args], { cwd: root, encoding: 'utf8', timeout: 120_000 })
  return { code: run.status, stdout: run.stdout, stderr: run.stderr }
}

export interface RasterOptions {
  readonly type?: string
  /** West edge and north edge, EPSG:5070 metres; 30 m cells. */
  readonly originX?: number
  readonly originY?: number
  readonly cellM?: number
  readonly srs?: string
}

/** Writes `rows` (north row first) as `<dir>/<name>.tif`; −9999 is no data. Answers the path. */
export function writeRaster(
  dir: string,
  name: string,
  rows: readonly (readonly number[])[],
  o: RasterOptions = {},
): string {
  const cell = o.cellM ?? 30
  const x0 = o.originX ?? -1_000_000
  const y0 = o.originY ?? 1_500_000
  const asc = path.join(dir, `${name}.asc`)
  const header = `ncols ${rows[0]!.length}\nnrows ${rows.length}\nxllcorner ${x0}\nyllcorner ${y0 - rows.length * cell}\ncellsize ${cell}\nNODATA_value -9999\n`
  writeFileSync(asc, header + rows.map((r) => r.join(' ')).join('\n') + '\n')
  const tif = path.join(dir, `${name}.tif`)
  execFileSync('gdal_translate', ['-q', '-a_srs', o.srs ?? 'EPSG:5070', '-ot', o.type ?? 'Float32', asc, tif])
  return tif
}

export interface GdalInfo {
  size: [number, number]
  geoTransform: number[]
  coordinateSystem: { wkt: string }
  bands: { noDataValue?: number; type: string }[]
}

export const gdalInfo = (file: string): GdalInfo =>
  JSON.parse(execFileSync('gdalinfo', ['-json', file], { encoding: 'utf8' })) as GdalInfo

/** A raster's first band as rows of numbers (gdal_translate to an ASCII grid, 9 significant digits). */
export function readAscii(file: string): { values: number[][]; noData: number | undefined } {
  const text = execFileSync(
    'gdal_translate',
    ['-q', '-of', 'AAIGrid', '-co', 'SIGNIFICANT_DIGITS=9', file, '/vsistdout/'],
    {
      encoding: 'utf8',
    },
  )
  const lines = text.trim().split('\n')
  let noData: number | undefined
  let rows = 0
  const values: number[][] = []
  // The header, then nrows lines of values (GDAL may follow them with the .prj's WKT).
  for (const line of lines) {
    const parts = line.trim().split(/\s+/)
    if (/^[a-z_]+$/i.test(parts[0]!)) {
      if (parts[0]!.toLowerCase() === 'nodata_value') noData = Number(parts[1])
      if (parts[0]!.toLowerCase() === 'nrows') rows = Number(parts[1])
      continue
    }
    if (values.length < rows) values.push(parts.map(Number))
  }
  return { values, noData }
}

/** Writes several grids as the bands of one GeoTIFF (band 1 first). */
export function writeBands(
  dir: string,
  name: string,
  bands: readonly (readonly (readonly number[])[])[],
  o: RasterOptions = {},
): string {
  const files = bands.map((rows, b) => writeRaster(dir, `${name}-band${b + 1}`, rows, o))
  const vrt = path.join(dir, `${name}.vrt`)
  execFileSync('gdalbuildvrt', ['-q', '-separate', vrt, ...files])
  const tif = path.join(dir, `${name}.tif`)
  execFileSync('gdal_translate', ['-q', vrt, tif])
  return tif
}

/** EPSG:5070 metres to longitude, latitude (gdaltransform). */
export function toLonLat(x: number, y: number): [number, number] {
  const out = execFileSync('gdaltransform', ['-s_srs', 'EPSG:5070', '-t_srs', 'EPSG:4326', '-output_xy'], {
    input: `${x} ${y}\n`,
    encoding: 'utf8',
  })
  return out.trim().split(/\s+/).map(Number) as [number, number]
}
