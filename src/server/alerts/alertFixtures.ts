import type { GeometryKind } from '../store/catalog'
import type { Parts } from '../store/geometryCodec'
import type { PreparedDataset, PreparedFeature } from './alertTypes'
import type { Properties } from './conditions'
import { MILES_PER_DEGREE, toShape, type Shape } from './groundDistance'

/** Small hand-made geometries for the rule tests, around 35°N 106°W (New Mexico). */
export const LAT0 = 35
export const LON0 = -106
const KX = MILES_PER_DEGREE * Math.cos((LAT0 * Math.PI) / 180)

/** lon/lat of a point `east` and `north` miles from (LON0, LAT0) (same local projection as the engine). */
export function at(east: number, north: number): [number, number] {
  return [LON0 + east / KX, LAT0 + north / MILES_PER_DEGREE]
}

export const point = (east: number, north: number): Shape => toShape([[[at(east, north)]]], 'point')

export const line = (...xy: [number, number][]): Shape => toShape([[xy.map(([e, n]) => at(e, n))]], 'line')

/** An axis-aligned square polygon (optional square hole), corners in miles. */
export function square(west: number, south: number, east: number, north: number, hole?: number[]): Shape {
  const ring = (w: number, s: number, e: number, n: number) => [
    at(w, s),
    at(e, s),
    at(e, n),
    at(w, n),
    at(w, s),
  ]
  const rings = [ring(west, south, east, north)]
  if (hole) rings.push(ring(hole[0]!, hole[1]!, hole[2]!, hole[3]!))
  return toShape([rings], 'polygon')
}

/** A prepared dataset of the given shapes (ids 1..n, key = `key` property or the id). */
export function dataset(
  id: string,
  items: { shape: Shape; properties?: Properties; key?: string }[],
): PreparedDataset {
  const kind: GeometryKind = items[0]?.shape.kind ?? 'point'
  const features: PreparedFeature[] = items.map((item, i) => ({
    id: i + 1,
    key: item.key ?? String(i + 1),
    properties: item.properties ?? {},
    shape: item.shape,
  }))
  return { id, version: 1, kind, features, byId: new Map(features.map((f) => [f.id, f])) }
}

export type { Parts }
