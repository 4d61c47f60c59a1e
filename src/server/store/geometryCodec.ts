import type { Geometry, Position } from 'geojson'
import type { GeometryKind } from './catalog'

/** Parts → rings → points, lon/lat: the one shape every stored geometry takes. */
export type Parts = number[][][][]

export interface EncodedGeometry {
  blob: Buffer
  minx: number
  miny: number
  maxx: number
  maxy: number
  /** Web Mercator world units (0..1): √area for polygons, bbox extent for lines, 0 for points. */
  size: number
}

const KIND_OF: Record<string, GeometryKind> = {
  Point: 'point',
  MultiPoint: 'point',
  LineString: 'line',
  MultiLineString: 'line',
  Polygon: 'polygon',
  MultiPolygon: 'polygon',
}

function isPosition(p: unknown): p is Position {
  return Array.isArray(p) && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1])
}

function checkRing(ring: unknown, min: number): number[][] {
  if (!Array.isArray(ring) || ring.length < min)
    throw new Error(`a ring/line needs at least ${min} positions`)
  for (const p of ring) {
    if (!isPosition(p)) throw new Error('positions must be [lon, lat] numbers')
    const [x, y] = p as [number, number]
    if (Math.abs(x) > 180 || Math.abs(y) > 90) throw new Error(`position [${x}, ${y}] is not lon/lat`)
  }
  return ring as number[][]
}

/** Normalises a GeoJSON geometry of the dataset's kind into parts; throws a readable error otherwise. */
export function toParts(geometry: Geometry | null | undefined, kind: GeometryKind): Parts {
  if (!geometry || typeof geometry !== 'object') throw new Error('missing geometry')
  const got = KIND_OF[geometry.type]
  if (got !== kind) throw new Error(`geometry ${String(geometry.type)} does not fit a ${kind} dataset`)
  switch (geometry.type) {
    case 'Point':
      return [[checkRing([geometry.coordinates], 1)]]
    case 'MultiPoint':
      return geometry.coordinates.map((p) => [checkRing([p], 1)])
    case 'LineString':
      return [[checkRing(geometry.coordinates, 2)]]
    case 'MultiLineString':
      return geometry.coordinates.map((l) => [checkRing(l, 2)])
    case 'Polygon':
      return [geometry.coordinates.map((r) => checkRing(r, 4))]
    case 'MultiPolygon':
      return geometry.coordinates.map((poly) => poly.map((r) => checkRing(r, 4)))
    default:
      throw new Error(`unsupported geometry ${geometry.type}`)
  }
}

export function mercX(lon: number): number {
  return lon / 360 + 0.5
}

export function mercY(lat: number): number {
  const s = Math.sin((lat * Math.PI) / 180)
  const y = 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI
  return y < 0 ? 0 : y > 1 ? 1 : y
}

function ringArea(ring: number[][]): number {
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const p = ring[i] as number[]
    const q = ring[j] as number[]
    a += (mercX(q[0] as number) - mercX(p[0] as number)) * (mercY(q[1] as number) + mercY(p[1] as number))
  }
  return Math.abs(a / 2)
}

/** Packs parts into a Float64 blob: [nParts, (nRings, (nPoints, lon, lat, …)…)…]. */
export function encodeGeometry(parts: Parts, kind: GeometryKind): EncodedGeometry {
  let len = 1
  for (const part of parts) {
    len += 1
    for (const ring of part) len += 1 + ring.length * 2
  }
  const out = new Float64Array(len)
  let k = 0
  let minx = Infinity
  let miny = Infinity
  let maxx = -Infinity
  let maxy = -Infinity
  let area = 0
  out[k++] = parts.length
  for (const part of parts) {
    out[k++] = part.length
    part.forEach((ring, r) => {
      out[k++] = ring.length
      for (const p of ring) {
        const x = p[0] as number
        const y = p[1] as number
        out[k++] = x
        out[k++] = y
        if (x < minx) minx = x
        if (x > maxx) maxx = x
        if (y < miny) miny = y
        if (y > maxy) maxy = y
      }
      if (kind === 'polygon') area += r === 0 ? ringArea(ring) : -ringArea(ring)
    })
  }
  const extent = Math.max(mercX(maxx) - mercX(minx), mercY(miny) - mercY(maxy))
  const size = kind === 'polygon' ? Math.sqrt(Math.max(area, 0)) : kind === 'line' ? extent : 0
  return { blob: Buffer.from(out.buffer), minx, miny, maxx, maxy, size }
}

/** Unpacks a blob written by encodeGeometry. */
export function decodeParts(blob: Uint8Array): Parts {
  const a =
    blob.byteOffset % 8 === 0
      ? new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8)
      : new Float64Array(new Uint8Array(blob).buffer) // a copy: Buffer#slice would be a view
  let k = 0
  const nParts = a[k++] as number
  const parts: Parts = []
  for (let i = 0; i < nParts; i++) {
    const nRings = a[k++] as number
    const part: number[][][] = []
    for (let r = 0; r < nRings; r++) {
      const n = a[k++] as number
      const ring: number[][] = new Array<number[]>(n)
      for (let j = 0; j < n; j++) {
        ring[j] = [a[k] as number, a[k + 1] as number]
        k += 2
      }
      part.push(ring)
    }
    parts.push(part)
  }
  return parts
}

/** Parts back to GeoJSON: single types for one part, multi types otherwise. */
export function partsToGeometry(parts: Parts, kind: GeometryKind): Geometry {
  const single = parts.length === 1
  switch (kind) {
    case 'point': {
      const pts = parts.map((p) => p[0]?.[0] ?? [0, 0])
      return single
        ? { type: 'Point', coordinates: pts[0] ?? [0, 0] }
        : { type: 'MultiPoint', coordinates: pts }
    }
    case 'line': {
      const lines = parts.map((p) => p[0] ?? [])
      return single
        ? { type: 'LineString', coordinates: lines[0] ?? [] }
        : { type: 'MultiLineString', coordinates: lines }
    }
    case 'polygon':
      return single
        ? { type: 'Polygon', coordinates: parts[0] ?? [] }
        : { type: 'MultiPolygon', coordinates: parts }
  }
}
