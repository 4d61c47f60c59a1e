import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Geometry, Position } from 'geojson'
import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { fromVectorTileJs } from 'vt-pbf'
import { afterAll, describe, expect, it } from 'vitest'
import type { DatasetDef, GeometryKind } from '../store/catalog'
import { encodeGeometry, toParts } from '../store/geometryCodec'
import { EXTENT, encodeSlice, pickTile, type SlicePlan } from './encodeSlice'
import { sliceTile } from './sliceTile'
import { buildTileData, spatialIndex, type TileData } from './tileData'

// Our encoder (value ids assigned at build time, written with pbf) against vt-pbf's
// fromVectorTileJs on the same cut features: equal bytes, and equal when decoded by
// @mapbox/vector-tile and by GDAL's MVT driver (ogrinfo), for every layer kind and zoom band.

let seed = 20261125
const rand = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
const pick = <T>(a: readonly T[]): T => a[Math.floor(rand() * a.length)] as T
const CX = -106.65
const CY = 35.08

function ring(cx: number, cy: number, w: number, h: number, turn: number): Position[] {
  const c = Math.cos(turn)
  const s = Math.sin(turn)
  const pts = [
    [-w, -h],
    [w, -h],
    [w, h],
    [-w, h],
  ].map(([dx, dy]) => [
    cx + (dx as number) * c - (dy as number) * s,
    cy + (dx as number) * s + (dy as number) * c,
  ])
  return [...pts, pts[0] as Position]
}

function polygon(): Geometry {
  const cx = CX + (rand() - 0.5) * 0.6
  const cy = CY + (rand() - 0.5) * 0.6
  const size = rand() < 0.05 ? 0.02 + rand() * 0.05 : 0.0002 + rand() * 0.002
  const outer = ring(cx, cy, size, size * (0.5 + rand()), rand() * 3)
  const r = rand()
  if (r < 0.1) return { type: 'Polygon', coordinates: [outer, ring(cx, cy, size / 3, size / 4, 0).reverse()] }
  if (r < 0.2)
    return {
      type: 'MultiPolygon',
      coordinates: [[outer], [ring(cx + size * 3, cy, size, size, rand())]],
    }
  return { type: 'Polygon', coordinates: [outer] }
}

function line(): Geometry {
  let x = CX + (rand() - 0.5) * 0.6
  let y = CY + (rand() - 0.5) * 0.6
  const pts: Position[] = []
  const n = 2 + Math.floor(rand() * 40)
  const step = rand() < 0.2 ? 0.05 : 0.003
  for (let i = 0; i < n; i++) {
    pts.push([x, y])
    x += (rand() - 0.5) * step
    y += (rand() - 0.5) * step
  }
  return rand() < 0.15
    ? {
        type: 'MultiLineString',
        coordinates: [pts, pts.map(([a, b]) => [(a as number) + 0.01, b as number])],
      }
    : { type: 'LineString', coordinates: pts }
}

function point(): Geometry {
  const p = (): Position => [CX + (rand() - 0.5) * 0.6, CY + (rand() - 0.5) * 0.6]
  return rand() < 0.1
    ? { type: 'MultiPoint', coordinates: [p(), p(), p()] }
    : { type: 'Point', coordinates: p() }
}

/** Fields covering every value kind: strings (one also written as digits), ints ≥ 0, negative ints, doubles, missing. */
const FIELDS: DatasetDef['fields'] = [
  { name: 'occupancy', type: 'string' },
  { name: 'town', type: 'string' },
  { name: 'code', type: 'string' },
  { name: 'year_built', type: 'number' },
  { name: 'value_usd', type: 'number' },
  { name: 'risk_score', type: 'number' },
  { name: 'offset', type: 'number' },
  { name: 'installed', type: 'date' },
]

function props(i: number): unknown[] {
  const maybe = <T>(v: T): T | null => (rand() < 0.1 ? null : v)
  return [
    maybe(pick(['residential', 'commercial', 'industrial'])),
    maybe(pick(['Albuquerque', 'Rio Rancho', 'Unincorporated', 'commercial'])),
    maybe(String(Math.floor(rand() * 20))),
    maybe(1900 + Math.floor(rand() * 124)),
    maybe(Math.floor(rand() * 2_000_000) * 10),
    maybe(Math.round(rand() * 10_000) / 100),
    maybe(Math.floor(rand() * 40) - 30),
    i % 7 === 0 ? null : `2024-0${1 + (i % 9)}-1${i % 10}`,
  ]
}

function dataset(kind: GeometryKind, n: number, make: () => Geometry): TileData {
  const d: DatasetDef = { id: `${kind}s`, geometry: kind, fields: FIELDS }
  const rows = Array.from({ length: n }, (_, i) => {
    const g = encodeGeometry(toParts(make(), kind), kind)
    return [i + 1, g.size, g.blob, ...props(i)]
  })
  return buildTileData(d, { version: 1, count: n, bbox: null, rows })
}

const LAYERS: { name: string; data: TileData }[] = [
  { name: 'buildings', data: dataset('polygon', 4000, polygon) },
  { name: 'lines', data: dataset('line', 800, line) },
  { name: 'points', data: dataset('point', 1500, point) },
]

/** The zoom bands of the content policy whose tiles are cut (aggregated cells are not). */
const BANDS: { name: string; zooms: number[]; plan: (z: number) => SlicePlan }[] = [
  {
    name: 'z6-8 full',
    zooms: [6, 8],
    plan: () => ({ thin: false, minSize: 0, limit: 50_000, tolerance: 1 }),
  },
  {
    name: 'z10-11 full',
    zooms: [10, 11],
    plan: () => ({ thin: false, minSize: 0, limit: 50_000, tolerance: 1 }),
  },
  {
    name: 'z12-13 thinned',
    zooms: [12, 13],
    plan: (z) => ({ thin: true, minSize: 0.5 / (2 ** z * 512), limit: z === 13 ? 400 : 200, tolerance: 3 }),
  },
  {
    name: 'z14-16 full',
    zooms: [14, 16],
    plan: () => ({ thin: false, minSize: 0, limit: 50_000, tolerance: 1 }),
  },
]

/** The tile holding the data's centre and the tile to its lower right (features cut by edges). */
function tilesAt(z: number): [number, number][] {
  const n = 2 ** z
  const x = Math.floor(((CX + 180) / 360) * n)
  const s = Math.sin((CY * Math.PI) / 180)
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)
  return [
    [x, y],
    [x + 1, y + 1],
  ]
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eb-mvt-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function decoded(bytes: Uint8Array, layer: string): unknown[] {
  const l = new VectorTile(new Pbf(bytes)).layers[layer]
  if (!l) return []
  return Array.from({ length: l.length }, (_, i) => {
    const f = l.feature(i)
    return { id: f.id, type: f.type, properties: f.properties, geometry: f.loadGeometry() }
  })
}

/** What GDAL reads from a tile file (ogrinfo -al of the MVT driver; the file name left out). */
function ogr(bytes: Uint8Array, name: string): string {
  const file = path.join(dir, `${name}.mvt`)
  fs.writeFileSync(file, bytes)
  return execFileSync('ogrinfo', ['-ro', '-al', '-q', '-oo', 'CLIP=NO', `MVT:${file}`], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  })
}

describe('MVT encoder (value ids, pbf)', () => {
  for (const { name, data } of LAYERS)
    for (const band of BANDS)
      it(`writes the bytes vt-pbf writes, decoded alike by vector-tile and GDAL: ${name} ${band.name}`, () => {
        const index = spatialIndex(data)
        let tiles = 0
        let features = 0
        for (const z of band.zooms)
          for (const [x, y] of tilesAt(z)) {
            const plan = band.plan(z)
            const p = pickTile(index, z, x, y, plan)
            const ours = encodeSlice(data, index, name, z, x, y, plan, p)
            const cut = sliceTile(data, p.picked, z, x, y, {
              extent: EXTENT,
              buffer: 64,
              tolerance: plan.tolerance,
            })
            if (cut.length === 0) {
              expect(ours.features).toBe(0)
              continue
            }
            const ref = fromVectorTileJs({
              layers: {
                [name]: { name, version: 2, extent: EXTENT, length: cut.length, feature: (i) => cut[i] },
              },
            })
            const where = `${name} ${z}/${x}/${y}`
            expect(Buffer.from(ours.pbf).equals(Buffer.from(ref)), where).toBe(true)
            const mine = decoded(ours.pbf, name)
            expect(mine, where).toEqual(decoded(ref, name))
            expect(mine).toHaveLength(cut.length)
            const gdal = ogr(ours.pbf, `ours-${name}-${z}-${x}-${y}`)
            expect(gdal, where).toBe(ogr(ref, `vtpbf-${name}-${z}-${x}-${y}`))
            expect(gdal.match(/^OGRFeature\(/gm)?.length, where).toBe(cut.length)
            tiles += 1
            features += cut.length
          }
        expect(tiles, `${name} ${band.name}: tiles with features`).toBeGreaterThan(0)
        expect(features).toBeGreaterThan(0)
      })

  it('writes every value kind as vt-pbf does: strings (digits too), ints, negative ints, doubles; missing values left out', () => {
    const { data } = LAYERS[0] as { data: TileData }
    const [x, y] = tilesAt(10)[0] as [number, number]
    const plan = { thin: false, minSize: 0, limit: 50_000, tolerance: 1 }
    const tile = encodeSlice(data, spatialIndex(data), 'buildings', 10, x, y, plan)
    const layer = new VectorTile(new Pbf(tile.pbf)).layers.buildings
    const seen = new Set<string>()
    let missing = 0
    for (let i = 0; i < (layer?.length ?? 0); i++) {
      const p = layer?.feature(i).properties ?? {}
      for (const f of FIELDS) {
        const v = p[f.name]
        if (v === undefined) missing += 1
        else
          seen.add(
            `${f.name}:${typeof v}${typeof v === 'number' && v < 0 ? '-' : ''}${Number.isInteger(v) ? 'i' : ''}`,
          )
      }
    }
    expect(missing).toBeGreaterThan(0)
    for (const k of [
      'code:string',
      'town:string',
      'installed:string',
      'year_built:numberi',
      'offset:number-i',
      'risk_score:number',
    ])
      expect(seen, k).toContain(k)
  })
})
