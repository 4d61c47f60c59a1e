import {
  cellLat,
  emptyRaster,
  fillRaster,
  type GridRaster,
  type GridShape,
} from '../../../server/grids/gridRaster'
import { fbm, ridged } from './noise'

/** A mountain range: a ridge along a polyline ([lon, lat] points), or a dome when it has one point. */
interface Range {
  name: string
  line: [number, number][]
  height: number
  /** Half-width of the range in degrees. */
  width: number
}

/** New Mexico's main ranges (rough crest lines) and a few smaller ones for texture. */
const RANGE_LINES: Range[] = [
  {
    name: 'Sangre de Cristo',
    line: [
      [-105.85, 35.65],
      [-105.6, 36.2],
      [-105.45, 36.6],
      [-105.4, 37.0],
    ],
    height: 1700,
    width: 0.2,
  },
  { name: 'Jemez', line: [[-106.55, 35.88]], height: 1050, width: 0.32 },
  {
    name: 'Sandia–Manzano',
    line: [
      [-106.44, 35.25],
      [-106.4, 34.9],
      [-106.38, 34.45],
    ],
    height: 1200,
    width: 0.08,
  },
  {
    name: 'Gila',
    line: [
      [-108.7, 33.4],
      [-108.3, 33.2],
      [-108.0, 33.0],
    ],
    height: 1050,
    width: 0.35,
  },
  {
    name: 'Black Range',
    line: [
      [-107.85, 33.35],
      [-107.78, 32.85],
    ],
    height: 800,
    width: 0.1,
  },
  {
    name: 'Sacramento',
    line: [
      [-105.8, 33.42],
      [-105.75, 33.0],
      [-105.7, 32.6],
    ],
    height: 1350,
    width: 0.15,
  },
  { name: 'Mount Taylor', line: [[-107.61, 35.24]], height: 1100, width: 0.12 },
  {
    name: 'San Andres',
    line: [
      [-106.55, 33.3],
      [-106.55, 32.5],
    ],
    height: 650,
    width: 0.07,
  },
  {
    name: 'Chuska',
    line: [
      [-108.95, 36.6],
      [-108.85, 35.9],
    ],
    height: 700,
    width: 0.12,
  },
  {
    name: 'Capitan',
    line: [
      [-105.55, 33.6],
      [-105.2, 33.6],
    ],
    height: 700,
    width: 0.06,
  },
  {
    name: 'Guadalupe',
    line: [
      [-104.95, 32.45],
      [-104.7, 32.0],
    ],
    height: 500,
    width: 0.12,
  },
  {
    name: 'Magdalena',
    line: [
      [-107.2, 34.15],
      [-107.2, 33.9],
    ],
    height: 900,
    width: 0.08,
  },
]

/** Each range with the box beyond which it adds under a metre (3 half-widths). */
const RANGES = RANGE_LINES.map((r) => {
  const pad = r.width * 3
  const lons = r.line.map((p) => p[0])
  const lats = r.line.map((p) => p[1])
  const padLon = pad / Math.cos((34 * Math.PI) / 180)
  const reach = [
    Math.min(...lons) - padLon,
    Math.min(...lats) - pad,
    Math.max(...lons) + padLon,
    Math.max(...lats) + pad,
  ]
  return { ...r, reach: reach as [number, number, number, number] }
})

/** The Rio Grande valley, north to south. */
const RIO_GRANDE: [number, number][] = [
  [-105.7, 37.0],
  [-106.07, 36.0],
  [-106.6, 35.3],
  [-106.7, 35.0],
  [-106.88, 34.0],
  [-107.25, 33.2],
  [-106.78, 32.3],
  [-106.55, 31.8],
]

/** Distance in degrees (longitude scaled by cos 34°) from a point to a polyline. */
export function distanceToLine(lon: number, lat: number, line: [number, number][]): number {
  const k = Math.cos((34 * Math.PI) / 180)
  let best = Infinity
  if (line.length === 1) return Math.hypot((lon - line[0]![0]) * k, lat - line[0]![1])
  for (let s = 0; s + 1 < line.length; s++) {
    const [ax, ay] = line[s]!
    const [bx, by] = line[s + 1]!
    const px = (lon - ax) * k
    const py = lat - ay
    const vx = (bx - ax) * k
    const vy = by - ay
    const t = Math.max(0, Math.min(1, (px * vx + py * vy) / (vx * vx + vy * vy)))
    best = Math.min(best, Math.hypot(px - t * vx, py - t * vy))
  }
  return best
}

export function riverDistance(lon: number, lat: number): number {
  return distanceToLine(lon, lat, RIO_GRANDE)
}

/** Elevation in metres: plateau and plains, the Rio Grande trough, the ranges, noise. */
export function elevationAt(lon: number, lat: number, seed: number): number {
  let z = 1600 - (34 - lat) * 110
  if (lon > -105) z -= (lon + 105) * 230
  const plateau = Math.min(1, Math.max(0, (-106.5 - lon) / 0.8))
  z += plateau * Math.max(0, lat - 34.5) * 180
  const river = riverDistance(lon, lat)
  z -= 320 * Math.exp(-((river / 0.22) ** 2))
  let mountain = 0
  for (const r of RANGES) {
    const [w, so, e, n] = r.reach
    if (lon < w || lon > e || lat < so || lat > n) continue
    const d = distanceToLine(lon, lat, r.line)
    mountain += r.height * Math.exp(-((d / r.width) ** 2))
  }
  const texture = ridged(lon * 18, lat * 18, seed + 7) * 0.55 + fbm(lon * 40, lat * 40, seed + 11, 3) * 0.45
  const rough = Math.min(1, mountain / 900)
  return (
    z +
    mountain * (0.7 + 0.45 * texture) +
    (fbm(lon * 3, lat * 3, seed, 4) - 0.5) * 260 +
    rough * (texture - 0.5) * 1400 +
    (ridged(lon * 60, lat * 60, seed + 13, 2) - 0.4) * (120 + 1000 * rough)
  )
}

export function elevationGrid(shape: GridShape, mask: Uint8Array, seed: number): GridRaster {
  return fillRaster(emptyRaster(shape), (lon, lat, k) => (mask[k] ? elevationAt(lon, lat, seed) : Number.NaN))
}

/** Slope in degrees from central differences over the cell spacing in metres. */
export function slopeGrid(elevation: GridRaster): GridRaster {
  const { nx, ny } = elevation
  const out = emptyRaster(elevation)
  const dyM = ((elevation.north - elevation.south) / ny) * 110_574
  const at = (i: number, j: number, fallback: number): number => {
    const v = elevation.data[Math.min(ny - 1, Math.max(0, j)) * nx + Math.min(nx - 1, Math.max(0, i))]!
    return Number.isNaN(v) ? fallback : v
  }
  for (let j = 0; j < ny; j++) {
    const dxM =
      ((elevation.east - elevation.west) / nx) * 111_320 * Math.cos((cellLat(elevation, j) * Math.PI) / 180)
    for (let i = 0; i < nx; i++) {
      const z = elevation.data[j * nx + i]!
      if (Number.isNaN(z)) continue
      const gx = (at(i + 1, j, z) - at(i - 1, j, z)) / (2 * dxM)
      const gy = (at(i, j - 1, z) - at(i, j + 1, z)) / (2 * dyM)
      out.data[j * nx + i] = (Math.atan(Math.hypot(gx, gy)) * 180) / Math.PI
    }
  }
  return out
}
