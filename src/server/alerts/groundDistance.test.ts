import { describe, expect, it } from 'vitest'
import { at, line, point, square } from './alertFixtures'
import { expandBBox, groundDistanceMiles, MILES_PER_DEGREE } from './groundDistance'

const EPS = 1e-9

/** Great-circle distance in miles (haversine) for checking the local projection. */
function haversine(a: [number, number], b: [number, number]): number {
  const r = Math.PI / 180
  const h =
    Math.sin(((b[1] - a[1]) * r) / 2) ** 2 +
    Math.cos(a[1] * r) * Math.cos(b[1] * r) * Math.sin(((b[0] - a[0]) * r) / 2) ** 2
  return 2 * (MILES_PER_DEGREE / r) * Math.asin(Math.sqrt(h))
}

describe('groundDistanceMiles', () => {
  it('point–point matches the great-circle distance within 0.1 %', () => {
    // Symmetric about LAT0 so the engine's mid-latitude projection is the fixtures' own.
    const a = at(0, -2)
    const b = at(3, 2)
    const d = groundDistanceMiles(point(0, -2), point(3, 2))
    expect(d).toBeCloseTo(5, 6)
    expect(Math.abs(d - haversine(a, b)) / haversine(a, b)).toBeLessThan(0.001)
  })

  it('point–line: perpendicular distance, end-point distance and 0 on the line', () => {
    const l = line([-2, 0], [2, 0])
    expect(groundDistanceMiles(point(0, 1.5), l)).toBeCloseTo(1.5, 9)
    expect(groundDistanceMiles(point(5, 0), l)).toBeCloseTo(3, 9)
    expect(groundDistanceMiles(point(1, 0), l)).toBeLessThan(EPS)
    expect(groundDistanceMiles(l, point(0, -2))).toBeCloseTo(2, 9)
  })

  it('line–line: crossing is 0, parallel lines their gap', () => {
    expect(groundDistanceMiles(line([-1, -1], [1, 1]), line([-1, 1], [1, -1]))).toBe(0)
    expect(groundDistanceMiles(line([0, 0], [4, 0]), line([0, 2.5], [4, 2.5]))).toBeCloseTo(2.5, 9)
    expect(groundDistanceMiles(line([0, 0], [4, 0]), line([4, 0], [8, 3]))).toBeLessThan(EPS)
  })

  it('polygon–line: crossing, inside and outside', () => {
    const poly = square(0, 0, 4, 4)
    expect(groundDistanceMiles(poly, line([-1, 2], [6, 2]))).toBe(0)
    expect(groundDistanceMiles(poly, line([1, 1], [2, 3]))).toBe(0)
    expect(groundDistanceMiles(line([1, 1], [2, 3]), poly)).toBe(0)
    expect(groundDistanceMiles(poly, line([-3, 7], [9, 7]))).toBeCloseTo(3, 9)
  })

  it('polygon–point: inside is 0, in a hole is the distance to the hole edge', () => {
    const poly = square(-5, -5, 5, 5, [-1, -1, 1, 1])
    expect(groundDistanceMiles(poly, point(-3, 2))).toBe(0)
    expect(groundDistanceMiles(point(0, 0.5), poly)).toBeCloseTo(0.5, 9)
    expect(groundDistanceMiles(poly, point(7, 0))).toBeCloseTo(2, 9)
  })

  it('polygon–polygon: overlap and containment are 0, apart is the gap', () => {
    expect(groundDistanceMiles(square(0, 0, 4, 4), square(3, 3, 6, 6))).toBe(0)
    expect(groundDistanceMiles(square(0, 0, 10, 10), square(3, 3, 4, 4))).toBe(0)
    expect(groundDistanceMiles(square(3, 3, 4, 4), square(0, 0, 10, 10))).toBe(0)
    expect(groundDistanceMiles(square(0, 0, 4, 4), square(4, 0, 8, 4))).toBeLessThan(EPS)
    expect(groundDistanceMiles(square(0, -2, 4, 2), square(7, -2, 9, 2))).toBeCloseTo(3, 9)
  })

  it('prunes beyond the limit: exact within it, something larger beyond it', () => {
    const l = line([-2, 0], [2, 0])
    expect(groundDistanceMiles(point(0, 1), l, 2)).toBeCloseTo(1, 9)
    expect(groundDistanceMiles(point(0, 3), l, 2)).toBeGreaterThan(2)
    expect(groundDistanceMiles(point(0, 3), l)).toBeCloseTo(3, 9)
  })
})

describe('expandBBox', () => {
  it('grows a box by at least the distance in every direction', () => {
    const p = at(0, 0)
    const [w, s, e, n] = expandBBox([p[0], p[1], p[0], p[1]], 5)
    expect(haversine(p, [p[0], n])).toBeCloseTo(5, 6)
    expect(haversine(p, [p[0], s])).toBeCloseTo(5, 6)
    expect(haversine(p, [e, p[1]])).toBeGreaterThanOrEqual(5)
    expect(haversine(p, [w, p[1]])).toBeGreaterThanOrEqual(5)
  })
})
