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
  const fx = new Float64Array(size)
  for (let i = 0; i < size; i++) fx[i] = (pixelLon(x * size + i + 0.5, world) - grid.west) * sx
  const out = new Uint8Array(size * size * 4)
  let drawn = false
  for (let j = 0; j < size; j++) {
    const fy = (grid.north - pixelLat(y * size + j + 0.5, world)) * sy
    if (fy < 0 || fy >= ny) continue
    const row = Math.floor(fy)
    for (let i = 0; i < size; i++) {
      const gx = fx[i]!
      if (gx < 0 || gx >= nx) continue
      const col = Math.floor(gx)
      const own = data[row * nx + col]!
      if (Number.isNaN(own)) continue
      const value = interpolation === 'nearest' ? own : bilinear(data, nx, ny, gx - 0.5, fy - 0.5)
      if (ramp.paint(value, out, (j * size + i) * 4)) drawn = true
    }
  }
  return drawn ? out : null
}

/** Bilinear between cell centres; neighbours outside the grid or without data are left out. */
function bilinear(data: Float32Array, nx: number, ny: number, fx: number, fy: number): number {
  const i0 = Math.floor(fx)
  const j0 = Math.floor(fy)
  const tx = fx - i0
  const ty = fy - j0
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

/** Encodes RGBA pixels as a PNG: one filter (Paeth) and light deflate, far faster than adaptive filtering. */
export function encodePng(pixels: Uint8Array, size = 256): Buffer {
  const png = new PNG({ width: size, height: size, colorType: 6 })
  png.data = Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength)
  return PNG.sync.write(png, { colorType: 6, deflateLevel: 3, filterType: 4 })
}
