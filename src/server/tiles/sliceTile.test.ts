import type { Geometry } from 'geojson'
import geojsonvt from 'geojson-vt'
import { describe, expect, it } from 'vitest'
import type { DatasetDef, GeometryKind } from '../store/catalog'
import { encodeGeometry, toParts } from '../store/geometryCodec'
import { sliceTile, type SlicedFeature } from './sliceTile'
import { buildTileData, type TileData } from './tileData'

const OPTS = { extent: 4096, buffer: 64, tolerance: 1 }
const xy = (f: SlicedFeature | undefined): number[][][] =>
  (f?.geometry ?? []).map((r) => r.map((p) => [p.x, p.y]))

function dataOf(
  kind: GeometryKind,
  items: { geometry: Geometry; props?: Record<string, unknown> }[],
): TileData {
  const d: DatasetDef = {
    id: 'test',
    geometry: kind,
    fields: [
      { name: 'label', type: 'string' },
      { name: 'value', type: 'number' },
    ],
  }
  const rows = items.map((it, i) => {
    const g = encodeGeometry(toParts(it.geometry, kind), kind)
    return [i + 1, g.size, g.blob, it.props?.label ?? null, it.props?.value ?? null]
  })
  return buildTileData(d, { version: 1, count: rows.length, bbox: null, rows })
}

/** Lon/lat of a tile-unit position in tile z/x/y. */
function lonLat(z: number, x: number, y: number, px: number, py: number): [number, number] {
  const n = 2 ** z
  const wx = (x + px / 4096) / n
  const wy = (y + py / 4096) / n
  return [wx * 360 - 180, (Math.atan(Math.sinh(Math.PI * (1 - 2 * wy))) * 180) / Math.PI]
}

const Z = 12
const X = 818
const Y = 1614
const at = (px: number, py: number) => lonLat(Z, X, Y, px, py)
const square = (x0: number, y0: number, s: number) => [
  at(x0, y0),
  at(x0 + s, y0),
  at(x0 + s, y0 + s),
  at(x0, y0 + s),
  at(x0, y0),
]
const shoelace = (ring: number[][]) => {
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a += (ring[j]![0]! * ring[i]![1]! - ring[i]![0]! * ring[j]![1]!) / 2
  return a
}

describe('sliceTile', () => {
  it('projects a polygon inside the tile to tile units, closed and wound clockwise on screen', () => {
    const t = dataOf('polygon', [
      { geometry: { type: 'Polygon', coordinates: [square(100, 200, 50).reverse()] } },
    ])
    const [f] = sliceTile(t, [0], Z, X, Y, OPTS)
    const ring = xy(f)[0] as number[][]
    expect(f?.type).toBe(3)
    expect(ring[0]).toEqual(ring[ring.length - 1])
    expect(ring.map(([x, y]) => `${x},${y}`).sort()).toEqual(
      ['100,200', '150,200', '150,250', '100,250', '100,200'].sort(),
    )
    expect(shoelace(ring)).toBeGreaterThan(0)
  })

  it('winds holes opposite to their outer ring, like geojson-vt', () => {
    const outer = square(100, 100, 1000)
    const hole = square(400, 400, 200)
    const geometry: Geometry = { type: 'Polygon', coordinates: [outer, hole] }
    const [f] = sliceTile(dataOf('polygon', [{ geometry }]), [0], Z, X, Y, OPTS)
    const rings = xy(f)
    expect(rings).toHaveLength(2)
    expect(shoelace(rings[0] as number[][])).toBeGreaterThan(0)
    expect(shoelace(rings[1] as number[][])).toBeLessThan(0)
    const ref = geojsonvt(
      { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry }] },
      { maxZoom: Z, indexMaxZoom: 0, tolerance: 1, buffer: 64, extent: 4096 },
    ).getTile(Z, X, Y)
    const refRings = ref?.features[0]?.geometry as unknown as number[][][]
    expect(Math.sign(shoelace(refRings[0] as number[][]))).toBe(1)
    expect(Math.sign(shoelace(refRings[1] as number[][]))).toBe(-1)
  })

  it('clips polygons and lines to the tile plus buffer and drops what lies outside', () => {
    const t = dataOf('polygon', [
      { geometry: { type: 'Polygon', coordinates: [square(-500, 1000, 1000)] } },
      { geometry: { type: 'Polygon', coordinates: [square(5000, 5000, 100)] } },
    ])
    const out = sliceTile(t, [0, 1], Z, X, Y, OPTS)
    expect(out).toHaveLength(1)
    for (const p of xy(out[0])[0] ?? []) {
      expect(p[0]).toBeGreaterThanOrEqual(-64)
      expect(p[0]).toBeLessThanOrEqual(4160)
    }
    expect(xy(out[0])[0]?.some((p) => p[0] === -64)).toBe(true)

    const line = dataOf('line', [
      { geometry: { type: 'LineString', coordinates: [at(-1000, 500), at(2000, 500), at(2000, 9000)] } },
    ])
    const [l] = sliceTile(line, [0], Z, X, Y, OPTS)
    const parts = xy(l)
    expect(l?.type).toBe(2)
    expect(parts).toHaveLength(1)
    expect(parts[0]?.[0]).toEqual([-64, 500])
    expect(parts[0]?.[parts[0].length - 1]).toEqual([2000, 4160])
  })

  it('keeps points inside the buffer only, with ids and properties (missing values left out)', () => {
    const t = dataOf('point', [
      { geometry: { type: 'Point', coordinates: at(10, 20) }, props: { label: 'a', value: 2.5 } },
      { geometry: { type: 'Point', coordinates: at(-60, 4150) }, props: { label: 'b' } },
      { geometry: { type: 'Point', coordinates: at(-100, 20) }, props: { label: 'c', value: 1 } },
    ])
    const out = sliceTile(t, [0, 1, 2], Z, X, Y, OPTS)
    expect(out.map((f) => f.id)).toEqual([1, 2])
    expect(xy(out[0])).toEqual([[[10, 20]]])
    expect(out[0]?.properties).toEqual({ label: 'a', value: 2.5 })
    expect(out[1]?.properties).toEqual({ label: 'b' })
  })

  it('simplifies per zoom: a near-straight vertex goes at low zoom, stays at high zoom', () => {
    const coords = [
      lonLat(10, 204, 403, 0, 100),
      lonLat(10, 204, 403, 2000, 100.2),
      lonLat(10, 204, 403, 4000, 100),
    ]
    const t = dataOf('line', [{ geometry: { type: 'LineString', coordinates: coords } }])
    const low = sliceTile(t, [0], 10, 204, 403, OPTS)
    expect(xy(low[0])[0]).toHaveLength(2)
    // 2^6 times closer the middle vertex is 13 tile units off the chord: kept.
    const high = sliceTile(t, [0], 16, 204 * 64 + 31, 403 * 64 + 1, { ...OPTS, buffer: 4096 * 64 })
    expect(xy(high[0])[0]).toHaveLength(3)
  })
})
