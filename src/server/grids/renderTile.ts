import { PNG } from 'pngjs'
import type { ColorRamp } from '../../shared/colorRamp'
import type { GridRaster } from './gridRaster'

export type Interpolation = 'bilinear' | 'nearest'

/** Longitude of a global pixel edge/centre coordinate at zoom z (Web Mercator, 256 px tiles). */
export function pixelLon(px: number, worldSize: number): number {
  return (px / worldSize) * 360 - 180
}

export function pixelLat(py: number, worldSize: number): number {
  const n = Math.PI - (2 * Math.PI * py) / worldSize
  return (Math.atan(Math.sinh(n)) * 180) / Math.PI
}

/** The lon/lat bounds [west, south, east, north] of a tile. */
export function tileBounds(z: number, x: number, y: number, size = 256): [number, number, number, number] {
  const world = size * 2 ** z
  return [
    pixelLon(x * size, world),
    pixelLat((y + 1) * size, world),
    pixelLon((x + 1) * size, world),
    pixelLat(y * size, world),
  ]
}

/** True when the tile and the grid's extent do not meet. */
export function tileOutsideGrid(grid: GridRaster, z: number, x: number, y: number, size = 256): boolean {
  const [w, s, e, n] = tileBounds(z, x, y, size)
  return e <= grid.west || w >= grid.east || n <= grid.south || s >= grid.north
}

/**
 * Samples a grid at every pixel centre of a Web Mercator tile and colours it with the ramp.
 * Bilinear blends continuous values (never across no-data); nearest keeps classes pure.
 * Returns the RGBA pixels, or null when no pixel has a colour.
 */
export function renderTilePixels(
  grid: GridRaster,
  ramp: ColorRamp,
  interpolation: Interpolation,
  z: number,
  x: number,
  y: number,
  size = 256,
): Uint8Array | null {
  const world = size * 2 ** z
  const { nx, ny, data } = grid
  const sx = nx / (grid.east - grid.west)
  const sy = ny / (grid.north - grid.south)
  // Per column: the cell holding the pixel centre (-1 outside), and the bilinear left cell + weight.
  const col = new Int32Array(size)
  const left = new Int32Array(size)
  const tx = new Float64Array(size)
  for (let i = 0; i < size; i++) {
    const gx = (pixelLon(x * size + i + 0.5, world) - grid.west) * sx
    col[i] = gx < 0 || gx >= nx ? -1 : Math.floor(gx)
    left[i] = Math.floor(gx - 0.5)
    tx[i] = gx - 0.5 - left[i]!
  }
  const out = new Uint8Array(size * size * 4)
  const nearest = interpolation === 'nearest'
  let drawn = false
  for (let j = 0; j < size; j++) {
    const fy = (grid.north - pixelLat(y * size + j + 0.5, world)) * sy
    if (fy < 0 || fy >= ny) continue
    const rowOff = Math.floor(fy) * nx
    const top = Math.floor(fy - 0.5)
    const ty = fy - 0.5 - top
    const inner = top >= 0 && top + 1 < ny
    for (let i = 0; i < size; i++) {
      const c = col[i]!
      if (c < 0) continue
      const own = data[rowOff + c]!
      if (Number.isNaN(own)) continue
      let value = own
      if (!nearest) {
        const l = left[i]!
        const t = tx[i]!
        const k = top * nx + l
        const a =
          inner && l >= 0 && l + 1 < nx
            ? data[k]! + data[k + 1]! + data[k + nx]! + data[k + nx + 1]!
            : Number.NaN
        // Fast path when all four neighbours hold data; otherwise weigh only those that do.
        value = Number.isNaN(a)
          ? bilinear(data, nx, ny, l, top, t, ty)
          : (data[k]! * (1 - t) + data[k + 1]! * t) * (1 - ty) +
            (data[k + nx]! * (1 - t) + data[k + nx + 1]! * t) * ty
      }
      if (ramp.paint(value, out, (j * size + i) * 4)) drawn = true
    }
  }
  return drawn ? out : null
}

/** Bilinear from the cell (i0, j0) with weights tx, ty; neighbours outside the grid or without data are left out. */
function bilinear(
  data: Float32Array,
  nx: number,
  ny: number,
  i0: number,
  j0: number,
  tx: number,
  ty: number,
): number {
  let sum = 0
  let weight = 0
  for (let dj = 0; dj < 2; dj++) {
    const j = j0 + dj
    if (j < 0 || j >= ny) continue
    const wy = dj === 0 ? 1 - ty : ty
    for (let di = 0; di < 2; di++) {
      const i = i0 + di
      if (i < 0 || i >= nx) continue
      const w = wy * (di === 0 ? 1 - tx : tx)
      const v = data[j * nx + i]!
      if (w === 0 || Number.isNaN(v)) continue
      sum += v * w
      weight += w
    }
  }
  return sum / weight
}

/** Encodes RGBA pixels as a PNG: one cheap filter (Sub) and fast deflate — about 3× faster than pngjs's adaptive default for ~10 % more bytes. */
export function encodePng(pixels: Uint8Array, size = 256): Buffer {
  const png = new PNG({ width: size, height: size, colorType: 6 })
  png.data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength)
  return PNG.sync.write(png, { colorType: 6, deflateLevel: 1, filterType: 1 })
}
