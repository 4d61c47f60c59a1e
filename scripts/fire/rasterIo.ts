// GeoTIFF in and out for the fire commands. Reading: the geotiff package (pixels, grid, geokeys).
// Writing: GDAL's command-line tools (gdal_translate from a raw float32/byte file described by a VRT that
// carries the input's own CRS WKT and geotransform), so the outputs sit exactly on the input grid in any
// CRS GDAL knows. CRS text and coordinate transforms come from GDAL too (gdalsrsinfo, gdaltransform).
import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { fromFile } from 'geotiff'
import { UsageError } from './cliArgs'

const run = promisify(execFile)

/** A grid: size, GDAL geotransform [x0, dx, rx, y0, ry, dy] and the geokeys that name its CRS. */
export interface RasterGrid {
  readonly width: number
  readonly height: number
  readonly geoTransform: readonly [number, number, number, number, number, number]
  readonly geoKeys: Readonly<Record<string, unknown>>
}

export interface Raster extends RasterGrid {
  readonly path: string
  /** One array per band, row-major; the no-data value and non-finite values are NaN. */
  readonly bands: readonly Float64Array[]
}

/** Reads every band of a GeoTIFF; `option` names the command-line option in any error. */
export async function readRaster(path: string, option: string): Promise<Raster> {
  let image
  try {
    image = await (await fromFile(path)).getImage()
  } catch (err) {
    throw new UsageError(`--${option}: cannot read '${path}' as a GeoTIFF (${errorText(err)})`)
  }
  const [x0, y0] = image.getOrigin() as [number, number]
  const [dx, dy] = image.getResolution() as [number, number]
  const noData = image.getGDALNoData()
  const raw = await image.readRasters()
  const bands: Float64Array[] = []
  for (let b = 0; b < raw.length; b++) {
    const band = raw[b] as ArrayLike<number>
    const data = new Float64Array(band.length)
    for (let k = 0; k < data.length; k++) {
      const v = Number(band[k])
      data[k] = !Number.isFinite(v) || (noData !== null && v === noData) ? NaN : v
    }
    bands.push(data)
  }
  return {
    path,
    width: image.getWidth(),
    height: image.getHeight(),
    geoTransform: [x0, dx, 0, y0, 0, dy],
    geoKeys: (image.getGeoKeys() ?? {}) as Record<string, unknown>,
    bands,
  }
}

const CITATION_KEYS = new Set(['GTCitationGeoKey', 'GeogCitationGeoKey', 'PCSCitationGeoKey'])
const crsKeys = (keys: Readonly<Record<string, unknown>>) =>
  JSON.stringify(
    Object.entries(keys)
      .filter(([k]) => !CITATION_KEYS.has(k))
      .sort(([a], [b]) => a.localeCompare(b)),
  )

/** Throws a UsageError naming `option` and its file unless `raster` lies on `grid` (size, cells, CRS). */
export function assertSameGrid(grid: RasterGrid, raster: Raster, option: string, reference: string): void {
  const why =
    raster.width !== grid.width || raster.height !== grid.height
      ? `is ${raster.width} × ${raster.height} cells, ${reference} is ${grid.width} × ${grid.height}`
      : !raster.geoTransform.every(
            (v, i) =>
              Math.abs(v - grid.geoTransform[i]!) <= 1e-6 * Math.max(1, Math.abs(grid.geoTransform[1])),
          )
        ? `has origin ${raster.geoTransform[0]}, ${raster.geoTransform[3]} and cells ${raster.geoTransform[1]} × ${-raster.geoTransform[5]}, ${reference} has ${grid.geoTransform[0]}, ${grid.geoTransform[3]} and ${grid.geoTransform[1]} × ${-grid.geoTransform[5]}`
        : crsKeys(raster.geoKeys) !== crsKeys(grid.geoKeys)
          ? `is in another coordinate reference system than ${reference}`
          : undefined
  if (why)
    throw new UsageError(
      `--${option} '${raster.path}' is not on the same grid as ${reference}: it ${why} (resample it first, e.g. gdalwarp -tr/-te/-t_srs)`,
    )
}

/** The CRS of a dataset as WKT (gdalsrsinfo), and the length of its linear unit in metres. */
export async function crsOf(
  path: string,
): Promise<{ wkt: string; metresPerUnit: number; projected: boolean }> {
  const { stdout } = await run('gdalsrsinfo', ['-o', 'wkt2', '--single-line', path], { encoding: 'utf8' })
  const wkt = stdout.trim()
  const projected = /^(PROJCRS|PROJCS)\[/.test(wkt)
  // The axis unit is the last length unit of the WKT (the projection's parameters come first).
  const units = [...wkt.matchAll(/LENGTHUNIT\["[^"]*",([0-9.eE+-]+)/g)]
  const metresPerUnit = Number(units.at(-1)?.[1] ?? 1)
  return { wkt, metresPerUnit, projected }
}

export type OutputType = 'Float32' | 'Byte'

/**
 * Writes one band on `grid` (CRS `wkt`) as a deflate-compressed GeoTIFF through gdal_translate.
 * NaN becomes the no-data value.
 */
export async function writeGeoTiff(
  path: string,
  grid: RasterGrid,
  wkt: string,
  values: ArrayLike<number>,
  type: OutputType,
  noData: number,
): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'emberline-fire-'))
  try {
    const n = grid.width * grid.height
    const bytes = type === 'Float32' ? new Float32Array(n) : new Uint8Array(n)
    for (let i = 0; i < n; i++) {
      const v = values[i] ?? NaN
      bytes[i] = Number.isNaN(v) ? noData : v
    }
    await writeFile(join(dir, 'band.bin'), Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    const size = type === 'Float32' ? 4 : 1
    const vrt = `<VRTDataset rasterXSize="${grid.width}" rasterYSize="${grid.height}">
  <SRS dataAxisToSRSAxisMapping="1,2">${escapeXml(wkt)}</SRS>
  <GeoTransform>${grid.geoTransform.map((v) => v.toPrecision(17)).join(', ')}</GeoTransform>
  <VRTRasterBand dataType="${type}" band="1" subClass="VRTRawRasterBand">
    <NoDataValue>${noData}</NoDataValue>
    <SourceFilename relativetoVRT="1">band.bin</SourceFilename>
    <ImageOffset>0</ImageOffset>
    <PixelOffset>${size}</PixelOffset>
    <LineOffset>${size * grid.width}</LineOffset>
    <ByteOrder>LSB</ByteOrder>
  </VRTRasterBand>
</VRTDataset>
`
    await writeFile(join(dir, 'band.vrt'), vrt)
    await gdal('gdal_translate', [
      '-q',
      '-of',
      'GTiff',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'TILED=YES',
      join(dir, 'band.vrt'),
      path,
    ])
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** Runs a GDAL tool; a missing GDAL gets a readable error. */
export async function gdal(tool: string, args: readonly string[], input?: string): Promise<string> {
  try {
    const child = run(tool, [...args], { encoding: 'utf8', maxBuffer: 1 << 30 })
    if (input !== undefined) {
      child.child.stdin?.end(input)
    }
    return (await child).stdout
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(
        `${tool} not found: the fire commands need GDAL's tools (scripts/ensure-tools.sh installs gdal-bin)`,
      )
    throw new Error(`${tool} failed: ${errorText(err)}`)
  }
}

/** Longitude/latitude pairs (WGS 84) to the CRS `wkt` (gdaltransform). */
export async function lonLatTo(
  wkt: string,
  points: readonly (readonly [number, number])[],
): Promise<[number, number][]> {
  const out = await gdal(
    'gdaltransform',
    ['-s_srs', 'EPSG:4326', '-t_srs', wkt, '-output_xy'],
    points.map(([lon, lat]) => `${lon} ${lat}`).join('\n') + '\n',
  )
  return out
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number])
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const errorText = (err: unknown) => (err instanceof Error ? err.message.split('\n')[0] : String(err))
