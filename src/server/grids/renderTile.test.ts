import { PNG } from 'pngjs'
import { describe, expect, it } from 'vitest'
import { colorRamp, parseHexColor } from '../../shared/colorRamp'
import type { GridRaster } from './gridRaster'
import { encodePng, renderTilePixels, tileBounds, tileOutsideGrid } from './renderTile'

const resolve = (c: string): string => c
const slope = colorRamp(
  {
    type: 'gradient',
    stops: [
      { value: 0, color: '#f7fcf5' },
      { value: 15, color: '#c7e9c0' },
      { value: 30, color: '#74c476' },
    ],
  },
  resolve,
)
const classes = colorRamp(
  {
    type: 'classes',
    classes: [
      { value: 11, label: 'Water', color: '#4a80b4' },
      { value: 22, label: 'Urban', color: '#de2d26' },
    ],
  },
  resolve,
)

/** A 1°×1° grid west of Albuquerque with cells of 0.1°. */
function grid(fn: (i: number, j: number) => number): GridRaster {
  const data = new Float32Array(100)
  for (let j = 0; j < 10; j++) for (let i = 0; i < 10; i++) data[j * 10 + i] = fn(i, j)
  return { nx: 10, ny: 10, west: -107, east: -106, south: 34, north: 35, data }
}

/** z/x/y of the tile containing a lon/lat and the pixel in it. */
function locate(lon: number, lat: number, z: number): { x: number; y: number; px: number; py: number } {
  const world = 256 * 2 ** z
  const gx = ((lon + 180) / 360) * world
  const s = Math.sin((lat * Math.PI) / 180)
  const gy = (0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world
  return {
    x: Math.floor(gx / 256),
    y: Math.floor(gy / 256),
    px: Math.floor(gx % 256),
    py: Math.floor(gy % 256),
  }
}

const pixel = (p: Uint8Array, px: number, py: number): number[] => [
  ...p.subarray((py * 256 + px) * 4, (py * 256 + px) * 4 + 4),
]

describe('renderTilePixels', () => {
  it('colours a known value with the legend colour of that stop', () => {
    const t = locate(-106.5, 34.5, 8)
    const p = renderTilePixels(
      grid(() => 15),
      slope,
      'bilinear',
      8,
      t.x,
      t.y,
    )!
    expect(pixel(p, t.px, t.py)).toEqual([...parseHexColor('#c7e9c0')])
  })
  it('blends continuous values between cells (bilinear)', () => {
    const g = grid((i) => (i < 5 ? 0 : 30))
    const t = locate(-106.5, 34.5, 12) // on the boundary between the 0 and 30 halves
    const p = renderTilePixels(g, slope, 'bilinear', 12, t.x, t.y)!
    const c = pixel(p, t.px, t.py)
    expect(c).not.toEqual([...parseHexColor('#f7fcf5')])
    expect(c).not.toEqual([...parseHexColor('#74c476')])
  })
  it('never blends classes (nearest): every drawn pixel is one class colour', () => {
    const g = grid((i, j) => ((i + j) % 2 === 0 ? 11 : 22))
    const t = locate(-106.5, 34.5, 9)
    const p = renderTilePixels(g, classes, 'nearest', 9, t.x, t.y)!
    const allowed = new Set(['#4a80b4', '#de2d26'].map((c) => parseHexColor(c).join(',')))
    const seen = new Map<string, number>()
    for (let k = 0; k < p.length; k += 4) {
      if (p[k + 3] === 0) continue
      const c = `${p[k]},${p[k + 1]},${p[k + 2]},${p[k + 3]}`
      seen.set(c, (seen.get(c) ?? 0) + 1)
    }
    expect([...seen.keys()].sort()).toEqual([...allowed].sort())
    expect([...seen.values()].reduce((a, b) => a + b)).toBeGreaterThan(1000)
  })
  it('leaves no-data cells transparent and draws nothing outside the grid', () => {
    const g = grid((i) => (i < 5 ? Number.NaN : 15))
    const west = locate(-106.8, 34.5, 10)
    const east = locate(-106.2, 34.5, 10)
    expect(renderTilePixels(g, slope, 'bilinear', 10, west.x, west.y)).toBeNull()
    const p = renderTilePixels(g, slope, 'bilinear', 10, east.x, east.y)!
    expect(pixel(p, east.px, east.py)[3]).toBe(255)
    const far = locate(10, 50, 8)
    expect(tileOutsideGrid(g, 8, far.x, far.y)).toBe(true)
  })
  it('gives the same cell the same colour at neighbouring zooms', () => {
    const g = grid((i, j) => (i * 7 + j * 3) % 31)
    for (const [lon, lat] of [
      [-106.55, 34.45],
      [-106.95, 34.95],
      [-106.15, 34.05],
    ] as const) {
      const colours = [7, 8, 9, 10].map((z) => {
        const t = locate(lon, lat, z)
        return pixel(renderTilePixels(g, slope, 'nearest', z, t.x, t.y)!, t.px, t.py)
      })
      expect(new Set(colours.map((c) => c.join(','))).size).toBe(1)
    }
  })
  it('encodes a PNG that decodes to the same pixels', () => {
    const t = locate(-106.5, 34.5, 8)
    const p = renderTilePixels(
      grid(() => 15),
      slope,
      'bilinear',
      8,
      t.x,
      t.y,
    )!
    const png = PNG.sync.read(encodePng(p))
    expect(png.width).toBe(256)
    expect([...png.data]).toEqual([...p])
  })
  it('knows tile bounds', () => {
    expect(tileBounds(0, 0, 0).map((v) => Math.round(v))).toEqual([-180, -85, 180, 85])
  })
})
