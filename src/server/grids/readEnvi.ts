import type { GridRaster } from './gridRaster'

/**
 * Reads what `gdalwarp -of ENVI -co INTERLEAVE=BSQ -ot Float32 -t_srs EPSG:4326` writes: the raw
 * little-endian Float32 values (`bytes`, band after band, row 0 the northern row) and the text
 * header (`header`: samples, lines, bands, data type, byte order, `map info` with the top-left
 * corner and cell size in degrees). Each band's values are a view on `bytes` (no copy, no per-cell
 * work: GDAL already wrote NaN for no data), so the import stores exactly what GDAL computed.
 */
/**
 * The `gdalwarp` arguments that write what `readEnvi` reads, from `src` to `out` (an `.bil` path):
 * Float32, band-sequential, lon/lat, `resampling` (`near` or `bilinear`); Float32 arithmetic and
 * no destination no-data value — GDAL's fast warp kernels (no validity mask per output cell) —,
 * so cells no valid source cell reaches keep the initial NaN = no data; `target`: -te/-ts.
 */
export function enviWarpArgs(
  resampling: 'near' | 'bilinear',
  target: readonly string[],
  src: string,
  out: string,
): string[] {
  return [
    '-q',
    '-overwrite',
    '-of',
    'ENVI',
    '-co',
    'INTERLEAVE=BSQ',
    '-ot',
    'Float32',
    '-t_srs',
    'EPSG:4326',
    '-r',
    resampling,
    '-wt',
    'Float32',
    '-dstnodata',
    'None',
    '-wo',
    'INIT_DEST=NaN',
    '-multi',
    '-wo',
    'NUM_THREADS=ALL_CPUS',
    '-wm',
    '512',
    ...target,
    src,
    out,
  ]
}

export function readEnvi(header: string, bytes: Buffer): GridRaster[] {
  const field = (name: string): string | undefined =>
    new RegExp(`^\\s*${name}\\s*=\\s*(.*?)\\s*$`, 'im').exec(header)?.[1]
  const int = (name: string): number => {
    const n = Number(field(name))
    if (!Number.isInteger(n) || n < 0) throw new Error(`ENVI header: no '${name}'`)
    return n
  }
  const nx = int('samples')
  const ny = int('lines')
  const count = int('bands')
  if (int('header offset') !== 0) throw new Error('ENVI header: a header offset is not written by gdalwarp')
  if (int('data type') !== 4) throw new Error('ENVI header: not Float32 (data type 4)')
  if (int('byte order') !== 0) throw new Error('ENVI header: not little-endian (byte order 0)')
  if (count > 1 && (field('interleave') ?? '').toLowerCase() !== 'bsq')
    throw new Error('ENVI header: several bands must be band-sequential (interleave = bsq)')
  // map info = {Geographic Lat/Lon, refX, refY, x, y, dx, dy, datum…}: (refX, refY) is the 1-based
  // pixel position of (x, y); GDAL writes 1, 1 (the top-left corner of the top-left cell).
  const info = /^\s*map info\s*=\s*\{([^}]*)\}/im
    .exec(header)?.[1]
    ?.split(',')
    .map((s) => s.trim())
  if (!info || info.length < 7 || !/^Geographic Lat\/Lon$/i.test(info[0]!))
    throw new Error('ENVI header: no longitude/latitude map info')
  const [refX, refY, x, y, dx, dy] = info.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  if (![refX, refY, x, y, dx, dy].every(Number.isFinite) || !(dx > 0 && dy > 0))
    throw new Error('ENVI header: unreadable map info')
  const west = x - (refX - 1) * dx
  const north = y + (refY - 1) * dy
  const cells = nx * ny
  if (bytes.byteLength !== cells * count * 4)
    throw new Error(`ENVI data: ${bytes.byteLength} bytes for ${count} band(s) of ${nx}×${ny} Float32 values`)
  // A Float32Array view needs a 4-byte aligned offset; copy only if the buffer is not aligned.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : new Uint8Array(bytes)
  const out: GridRaster[] = []
  for (let b = 0; b < count; b++)
    out.push({
      nx,
      ny,
      west,
      south: north - ny * dy,
      east: west + nx * dx,
      north,
      data: new Float32Array(aligned.buffer, aligned.byteOffset + b * cells * 4, cells),
    })
  return out
}
