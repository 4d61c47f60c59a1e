import type { GeometryKind } from '../store/catalog'
import type { Parts } from '../store/geometryCodec'

/** Mean Earth radius in statute miles (IUGG). */
export const EARTH_RADIUS_MILES = 3958.7613
const RAD = Math.PI / 180
/** Miles per degree of latitude (and of longitude at the equator) on the mean sphere. */
export const MILES_PER_DEGREE = EARTH_RADIUS_MILES * RAD

export type BBox = [number, number, number, number]

/** A feature's geometry: lon/lat parts (geometryCodec's shape) plus flat copies for the distance loops. */
export interface Shape {
  readonly kind: GeometryKind
  readonly parts: Parts
  readonly bbox: BBox
  /** Lines and polygon rings as interleaved lon, lat (one path per ring / line). */
  readonly paths: readonly Float64Array[]
  /** Bbox of each path, same order. */
  readonly pathBoxes: readonly BBox[]
  /** Points of point geometries (and one-position lines), interleaved lon, lat. */
  readonly points: Float64Array
  /** Polygons as lists of rings (indices into `paths`); empty unless kind is polygon. */
  readonly polygons: readonly (readonly number[])[]
}

function boxOf(xy: ArrayLike<number>): BBox {
  const b: BBox = [Infinity, Infinity, -Infinity, -Infinity]
  for (let i = 0; i + 1 < xy.length; i += 2) {
    const x = xy[i] as number
    const y = xy[i + 1] as number
    if (x < b[0]) b[0] = x
    if (y < b[1]) b[1] = y
    if (x > b[2]) b[2] = x
    if (y > b[3]) b[3] = y
  }
  return b
}

/** Builds a Shape from lon/lat parts (closing unclosed polygon rings for the edge loops). */
export function toShape(parts: Parts, kind: GeometryKind): Shape {
  const paths: Float64Array[] = []
  const points: number[] = []
  const polygons: number[][] = []
  for (const part of parts) {
    const rings: number[] = []
    for (const ring of part) {
      const xy = ring.flatMap((p) => [p[0] as number, p[1] as number])
      const open = xy.length >= 4 && (xy[0] !== xy[xy.length - 2] || xy[1] !== xy[xy.length - 1])
      if (kind === 'polygon' && open) xy.push(xy[0] as number, xy[1] as number)
      if (kind === 'point' || xy.length === 2) points.push(...xy)
      else if (xy.length >= 4) {
        rings.push(paths.length)
        paths.push(Float64Array.from(xy))
      }
    }
    if (kind === 'polygon' && rings.length > 0) polygons.push(rings)
  }
  const pointArray = Float64Array.from(points)
  const boxes = paths.map(boxOf)
  const bbox = [...boxes, boxOf(pointArray)].reduce<BBox>(
    (u, b) => [Math.min(u[0], b[0]), Math.min(u[1], b[1]), Math.max(u[2], b[2]), Math.max(u[3], b[3])],
    [Infinity, Infinity, -Infinity, -Infinity],
  )
  return { kind, parts, bbox, paths, pathBoxes: boxes, points: pointArray, polygons }
}

/** The bbox grown by `miles` on the ground in every direction (longitude at the widest latitude). */
export function expandBBox(b: BBox, miles: number): BBox {
  const dLat = miles / MILES_PER_DEGREE
  const lat = Math.min(89.9, Math.max(Math.abs(b[1]), Math.abs(b[3])) + dLat)
  const dLon = miles / (MILES_PER_DEGREE * Math.cos(lat * RAD))
  return [b[0] - dLon, b[1] - dLat, b[2] + dLon, b[3] + dLat]
}

/**
 * Local equirectangular scale around a latitude: x = lon·kx, y = lat·ky in miles. Over the few
 * miles a rule measures, its error against the great-circle distance is far below a GPS fix.
 */
interface Scale {
  kx: number
  ky: number
}

function boxGap(a: BBox, b: BBox, s: Scale): number {
  const gx = Math.max(0, a[0] - b[2], b[0] - a[2]) * s.kx
  const gy = Math.max(0, a[1] - b[3], b[1] - a[3]) * s.ky
  return Math.hypot(gx, gy)
}

function insideRings(x: number, y: number, shape: Shape, rings: readonly number[]): boolean {
  let inside = false
  for (const r of rings) {
    const xy = shape.paths[r] as Float64Array
    for (let i = 0, j = xy.length - 2; i < xy.length; j = i, i += 2) {
      const xi = xy[i]!
      const yi = xy[i + 1]!
      const xj = xy[j]!
      const yj = xy[j + 1]!
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside
    }
  }
  return inside
}

/** Whether any part of `a` has a vertex inside a polygon of `b` (then, or if edges cross, distance 0). */
function anyVertexInside(a: Shape, b: Shape): boolean {
  if (b.polygons.length === 0) return false
  const probes: [number, number][] = []
  for (let i = 0; i + 1 < a.points.length; i += 2) probes.push([a.points[i]!, a.points[i + 1]!])
  for (const p of a.paths) probes.push([p[0]!, p[1]!])
  for (const [x, y] of probes) for (const rings of b.polygons) if (insideRings(x, y, b, rings)) return true
  return false
}

function pointSegment(
  px: number,
  py: number,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  s: Scale,
): number {
  const ax = (px - x1) * s.kx
  const ay = (py - y1) * s.ky
  const dx = (x2 - x1) * s.kx
  const dy = (y2 - y1) * s.ky
  const len2 = dx * dx + dy * dy
  let t = len2 === 0 ? 0 : (ax * dx + ay * dy) / len2
  t = t < 0 ? 0 : t > 1 ? 1 : t
  return Math.hypot(ax - t * dx, ay - t * dy)
}

function side(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))
}

/** Distance between segments p[i..i+3] and q[j..j+3] (0 when they properly cross). */
function segmentSegment(p: Float64Array, i: number, q: Float64Array, j: number, s: Scale): number {
  const ax = p[i]!
  const ay = p[i + 1]!
  const bx = p[i + 2]!
  const by = p[i + 3]!
  const cx = q[j]!
  const cy = q[j + 1]!
  const dx = q[j + 2]!
  const dy = q[j + 3]!
  const o1 = side(ax, ay, bx, by, cx, cy)
  const o2 = side(ax, ay, bx, by, dx, dy)
  const o3 = side(cx, cy, dx, dy, ax, ay)
  const o4 = side(cx, cy, dx, dy, bx, by)
  // Touching and collinear overlaps come out as 0 from the endpoint distances.
  if (o1 * o2 < 0 && o3 * o4 < 0) return 0
  return Math.min(
    pointSegment(ax, ay, cx, cy, dx, dy, s),
    pointSegment(bx, by, cx, cy, dx, dy, s),
    pointSegment(cx, cy, ax, ay, bx, by, s),
    pointSegment(dx, dy, ax, ay, bx, by, s),
  )
}

function pointsToShape(pts: Float64Array, b: Shape, s: Scale, best: number): number {
  for (let i = 0; i + 1 < pts.length && best > 0; i += 2) {
    const x = pts[i]!
    const y = pts[i + 1]!
    for (let j = 0; j + 1 < b.points.length; j += 2)
      best = Math.min(best, Math.hypot((x - b.points[j]!) * s.kx, (y - b.points[j + 1]!) * s.ky))
    for (const q of b.paths)
      for (let j = 0; j + 3 < q.length; j += 2)
        best = Math.min(best, pointSegment(x, y, q[j]!, q[j + 1]!, q[j + 2]!, q[j + 3]!, s))
  }
  return best
}

function pathToPath(p: Float64Array, q: Float64Array, qBox: BBox, s: Scale, best: number): number {
  for (let i = 0; i + 3 < p.length && best > 0; i += 2) {
    const gx = Math.max(0, Math.min(p[i]!, p[i + 2]!) - qBox[2], qBox[0] - Math.max(p[i]!, p[i + 2]!))
    const gy = Math.max(0, Math.min(p[i + 1]!, p[i + 3]!) - qBox[3], qBox[1] - Math.max(p[i + 1]!, p[i + 3]!))
    if (Math.hypot(gx * s.kx, gy * s.ky) >= best) continue
    for (let j = 0; j + 3 < q.length && best > 0; j += 2) {
      const gx = Math.max(
        0,
        Math.min(p[i]!, p[i + 2]!) - Math.max(q[j]!, q[j + 2]!),
        Math.min(q[j]!, q[j + 2]!) - Math.max(p[i]!, p[i + 2]!),
      )
      const gy = Math.max(
        0,
        Math.min(p[i + 1]!, p[i + 3]!) - Math.max(q[j + 1]!, q[j + 3]!),
        Math.min(q[j + 1]!, q[j + 3]!) - Math.max(p[i + 1]!, p[i + 3]!),
      )
      if (gx * s.kx >= best || gy * s.ky >= best) continue
      best = Math.min(best, segmentSegment(p, i, q, j, s))
    }
  }
  return best
}

/**
 * Distance on the ground in miles between two geometries of any kind (point, line, polygon):
 * 0 when they touch, cross, or one lies inside a polygon of the other. Both are projected
 * equirectangularly at the latitude midway between them. The result is exact when it is at most
 * `limit`; beyond it, any value above `limit` may be returned (pairs too far apart are pruned early).
 */
export function groundDistanceMiles(a: Shape, b: Shape, limit = Infinity): number {
  const lat0 = (Math.min(a.bbox[1], b.bbox[1]) + Math.max(a.bbox[3], b.bbox[3])) / 2
  const s: Scale = { kx: MILES_PER_DEGREE * Math.cos(lat0 * RAD), ky: MILES_PER_DEGREE }
  const cap = limit === Infinity ? Infinity : limit * 1.000001 + 1e-9
  if (boxGap(a.bbox, b.bbox, s) > cap) return Infinity
  if (anyVertexInside(a, b) || anyVertexInside(b, a)) return 0
  let best = pointsToShape(a.points, b, s, cap)
  best = pointsToShape(b.points, a, s, best)
  a.paths.forEach((p, i) => {
    b.paths.forEach((q, j) => {
      if (best > 0 && boxGap(a.pathBoxes[i] as BBox, b.pathBoxes[j] as BBox, s) < best)
        best = pathToPath(p, q, b.pathBoxes[j] as BBox, s, best)
    })
  })
  return best
}
