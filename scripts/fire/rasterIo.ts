// GeoTIFF in and out for the fire commands. Reading: the geotiff package (pixels, grid, geokeys, and the
// georeferencing tags as stored). Writing an output on an input's grid: in this process, a little-endian
// GeoTIFF (deflate strips, node:zlib) carrying the input's own georeferencing tags byte for byte
// (GeoKeyDirectory, GeoDoubleParams, GeoAsciiParams, ModelPixelScale/Tiepoint/Transformation), so GDAL
// reads the same geotransform and CRS — EPSG-coded or not — as from the input; the geotiff package's own
// writer cannot (8-bit samples only, a fixed 1,000-byte header that cuts long GeoAsciiParams). A grid
// without those tags (a CRS kept only beside the file) is written by GDAL (gdal_translate from a raw band
// described by a VRT that carries the CRS WKT and geotransform). CRS text and coordinate transforms come
// from GDAL too (gdalsrsinfo, gdaltransform).
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { deflate } from 'node:zlib'
import { fromArrayBuffer } from 'geotiff'
import { UsageError } from './cliArgs'

const run = promisify(execFile)
const deflateAsync = promisify(deflate)

/** The georeferencing tags of a GeoTIFF as stored (the geotiff package's fileDirectory values). */
export interface GeoTags {
  readonly GeoKeyDirectory: ArrayLike<number>
  readonly GeoDoubleParams?: ArrayLike<number>
  readonly GeoAsciiParams?: string
  readonly ModelPixelScale?: ArrayLike<number>
  readonly ModelTiepoint?: ArrayLike<number>
  readonly ModelTransformation?: ArrayLike<number>
}

/** A grid: size, GDAL geotransform [x0, dx, rx, y0, ry, dy] and the geokeys that name its CRS. */
export interface RasterGrid {
  readonly width: number
  readonly height: number
  readonly geoTransform: readonly [number, number, number, number, number, number]
  readonly geoKeys: Readonly<Record<string, unknown>>
  /** The input's georeferencing tags, when it is a GeoTIFF that has them: outputs carry them as they are. */
  readonly geoTags?: GeoTags
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
    // One read of the whole file (the geotiff package's file source reads each tile apart).
    const bytes = await readFile(path)
    image = await (
      await fromArrayBuffer(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
    ).getImage()
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
    const nd = noData ?? NaN
    for (let k = 0; k < data.length; k++) {
      const v = band[k]!
      data[k] = v === nd || v - v !== 0 ? NaN : v // v - v is NaN for ±Infinity and NaN
    }
    bands.push(data)
  }
  return {
    path,
    width: image.getWidth(),
    height: image.getHeight(),
    geoTransform: [x0, dx, 0, y0, 0, dy],
    geoKeys: (image.getGeoKeys() ?? {}) as Record<string, unknown>,
    ...geoTagsOf(image.fileDirectory as Record<string, unknown>),
    bands,
  }
}

function geoTagsOf(fd: Record<string, unknown>): { geoTags?: GeoTags } {
  const keys = fd.GeoKeyDirectory as ArrayLike<number> | undefined
  if (!keys || !(fd.ModelTiepoint || fd.ModelTransformation)) return {}
  const pick = <K extends keyof GeoTags>(k: K) => (fd[k] !== undefined ? { [k]: fd[k] as GeoTags[K] } : {})
  return {
    geoTags: {
      GeoKeyDirectory: keys,
      ...pick('GeoDoubleParams'),
      ...pick('GeoAsciiParams'),
      ...pick('ModelPixelScale'),
      ...pick('ModelTiepoint'),
      ...pick('ModelTransformation'),
    },
  }
}

/** GeoKey GTModelTypeGeoKey: 1 projected, 2 geographic, 3 geocentric; undefined when not given. */
export const modelTypeOf = (grid: RasterGrid): number | undefined => {
  const v = grid.geoKeys.GTModelTypeGeoKey
  return typeof v === 'number' ? v : undefined
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
 * Writes one band on `grid` as a GeoTIFF; NaN becomes the no-data value. A grid read from a GeoTIFF with
 * georeferencing tags is written in this process with those tags (writeTiff); otherwise through
 * gdal_translate with the CRS `wkt`.
 */
export async function writeGeoTiff(
  path: string,
  grid: RasterGrid,
  wkt: string | undefined,
  values: ArrayLike<number>,
  type: OutputType,
  noData: number,
): Promise<void> {
  const n = grid.width * grid.height
  const samples = type === 'Float32' ? new Float32Array(n) : new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const v = values[i] ?? NaN
    samples[i] = Number.isNaN(v) ? noData : v
  }
  if (grid.geoTags) return writeTiff(path, grid, grid.geoTags, samples, noData)
  if (wkt === undefined) throw new Error(`writeGeoTiff ${path}: the grid has neither GeoTIFF tags nor a CRS`)
  const dir = await mkdtemp(join(tmpdir(), 'emberline-fire-'))
  try {
    await writeFile(
      join(dir, 'band.bin'),
      Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength),
    )
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

// TIFF field types and the bytes of one value.
const SHORT = 3
const LONG = 4
const ASCII = 2
const DOUBLE = 12
const TYPE_BYTES: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [ASCII]: 1, [DOUBLE]: 8 }

type Field = { tag: number; type: number; values: ArrayLike<number> | string }

/**
 * A little-endian baseline TIFF of one band (32-bit float or 8-bit unsigned), deflate-compressed strips
 * of ~64 KB, with the georeferencing tags `tags` and GDAL's no-data tag (TIFF 6.0; GeoTIFF 1.1; GDAL's
 * GDAL_NODATA, tag 42113).
 */
async function writeTiff(
  path: string,
  grid: RasterGrid,
  tags: GeoTags,
  samples: Float32Array | Uint8Array,
  noData: number,
): Promise<void> {
  const { width, height } = grid
  const rowBytes = width * samples.BYTES_PER_ELEMENT
  const rowsPerStrip = Math.max(1, Math.min(height, Math.floor(65_536 / rowBytes)))
  const raw = Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength)
  const strips: Buffer[] = []
  for (let r = 0; r < height; r += rowsPerStrip)
    strips.push(raw.subarray(r * rowBytes, Math.min(height, r + rowsPerStrip) * rowBytes))
  const compressed = await Promise.all(strips.map((s) => deflateAsync(s)))
  const float = samples instanceof Float32Array
  const fields: Field[] = [
    { tag: 256, type: LONG, values: [width] },
    { tag: 257, type: LONG, values: [height] },
    { tag: 258, type: SHORT, values: [float ? 32 : 8] },
    { tag: 259, type: SHORT, values: [8] }, // deflate
    { tag: 262, type: SHORT, values: [1] }, // black is zero
    { tag: 273, type: LONG, values: new Array<number>(strips.length).fill(0) }, // strip offsets, below
    { tag: 277, type: SHORT, values: [1] },
    { tag: 278, type: LONG, values: [rowsPerStrip] },
    { tag: 279, type: LONG, values: compressed.map((c) => c.length) },
    { tag: 284, type: SHORT, values: [1] },
    { tag: 339, type: SHORT, values: [float ? 3 : 1] }, // IEEE float or unsigned integer
    ...(tags.ModelPixelScale ? [{ tag: 33550, type: DOUBLE, values: tags.ModelPixelScale }] : []),
    ...(tags.ModelTiepoint ? [{ tag: 33922, type: DOUBLE, values: tags.ModelTiepoint }] : []),
    ...(tags.ModelTransformation ? [{ tag: 34264, type: DOUBLE, values: tags.ModelTransformation }] : []),
    { tag: 34735, type: SHORT, values: tags.GeoKeyDirectory },
    ...(tags.GeoDoubleParams ? [{ tag: 34736, type: DOUBLE, values: tags.GeoDoubleParams }] : []),
    ...(tags.GeoAsciiParams !== undefined
      ? [{ tag: 34737, type: ASCII, values: zeroEnded(tags.GeoAsciiParams) }]
      : []),
    { tag: 42113, type: ASCII, values: zeroEnded(String(noData)) },
  ]
  const count = (f: Field) => f.values.length
  const outOfLine = (f: Field) => count(f) * TYPE_BYTES[f.type]! > 4
  const ifdBytes = 2 + fields.length * 12 + 4
  let extraBytes = 0
  for (const f of fields) if (outOfLine(f)) extraBytes += (count(f) * TYPE_BYTES[f.type]! + 1) & ~1
  const dataStart = 8 + ifdBytes + extraBytes
  let offset = dataStart
  const stripOffsets = fields.find((f) => f.tag === 273)!.values as number[]
  compressed.forEach((c, k) => {
    stripOffsets[k] = offset
    offset += c.length
  })
  if (offset > 0xffff_ffff) throw new Error(`${path}: larger than a classic TIFF holds (4 GB)`)
  const head = Buffer.alloc(dataStart)
  head.write('II', 0, 'latin1')
  head.writeUInt16LE(42, 2)
  head.writeUInt32LE(8, 4)
  head.writeUInt16LE(fields.length, 8)
  let entry = 10
  let extra = 8 + ifdBytes
  for (const f of fields) {
    head.writeUInt16LE(f.tag, entry)
    head.writeUInt16LE(f.type, entry + 2)
    head.writeUInt32LE(count(f), entry + 4)
    let at = entry + 8
    if (outOfLine(f)) {
      head.writeUInt32LE(extra, entry + 8)
      at = extra
      extra += (count(f) * TYPE_BYTES[f.type]! + 1) & ~1
    }
    if (typeof f.values === 'string') head.write(f.values, at, 'latin1')
    else
      for (let i = 0; i < f.values.length; i++) {
        const v = f.values[i]!
        if (f.type === SHORT) head.writeUInt16LE(v, at + 2 * i)
        else if (f.type === LONG) head.writeUInt32LE(v, at + 4 * i)
        else head.writeDoubleLE(v, at + 8 * i)
      }
    entry += 12
  }
  head.writeUInt32LE(0, entry) // no next IFD
  await writeFile(path, Buffer.concat([head, ...compressed]))
}

const zeroEnded = (s: string) => (s.endsWith('\0') ? s : `${s}\0`)

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
