import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppStore } from '../AppStore'
import type { ColumnFilter, SortKey } from '../columnIndex'
import { mercX, mercY } from '../geometryCodec'
import type { StoredFeature } from '../Store'
import { encodeSlice, type SlicePlan } from '../../tiles/encodeSlice'
import { buildTileData, spatialIndex } from '../../tiles/tileData'
import { buildings, fixtureCatalog, openTestStore, sites, wires, type OpenedStore } from './storeFixture'

// The same input in both stores must give the same answers: records, boxes, tile rows, cells,
// extents — and tiles cut by the tile engine from either store decode to the same features.

let sqlite: OpenedStore
let postgres: OpenedStore
const both = (): [AppStore, AppStore] => [sqlite.store, postgres.store]
/** One question to both stores: [SQLite's answer, PostgreSQL's]. */
async function ask<T>(q: (s: AppStore) => T | Promise<T>): Promise<[T, T]> {
  return [await q(sqlite.store), await q(postgres.store)]
}

beforeAll(async () => {
  sqlite = await openTestStore('sqlite')
  postgres = await openTestStore('postgres')
  for (const s of both()) {
    await s.replaceDataset('bldg', buildings(1500, 3))
    await s.replaceDataset('wires', wires(150, 5))
    await s.replaceDataset('sites', sites(300, 9))
  }
})
afterAll(async () => {
  await sqlite?.close()
  await postgres?.close()
})

/** Geometry blobs as plain Buffers (either store may hand out a Uint8Array view). */
const plain = (fs: readonly StoredFeature[]) => fs.map((f) => ({ ...f, geom: Buffer.from(f.geom) }))

describe('SQLite and PostgreSQL answer alike', () => {
  it('records: every filter, sort and page', async () => {
    const filters: ColumnFilter[][] = [
      [],
      [{ field: 'name', op: 'contains', value: 'a' }],
      [{ field: 'name', op: 'contains', value: 'Ñ' }],
      [{ field: 'name', op: 'contains', value: '\\' }],
      [{ field: 'height', op: 'eq', value: 0 }],
      [
        { field: 'height', op: 'gt', value: 5.5 },
        { field: 'name', op: 'contains', value: 'r' },
      ],
      [{ field: 'height', op: 'lte', value: -1 }],
    ]
    const sorts: (SortKey | undefined)[] = [
      undefined,
      { field: 'name', descending: false },
      { field: 'name', descending: true },
      { field: 'height', descending: false },
      { field: 'height', descending: true },
    ]
    for (const f of filters)
      for (const sort of sorts)
        for (const [limit, offset] of [
          [10, 0],
          [25, 40],
          [2000, 0],
        ] as const) {
          const [a, b] = await ask((s) => s.records('bldg', f, limit, offset, sort))
          expect(b, JSON.stringify({ f, sort, limit, offset })).toEqual(a)
        }
    const [a, b] = await ask((s) =>
      s.records('sites', [{ field: 'kind', op: 'contains', value: 'o' }], 500, 0, undefined),
    )
    expect(b).toEqual(a)
  })

  it('featuresInBox: the same features and match counts', async () => {
    for (const id of ['bldg', 'wires', 'sites'])
      for (const [box, minSize, limit] of [
        [[-106.1, 35.5, -105.9, 35.7], 0, 100_000],
        [[-106.1, 35.5, -105.9, 35.7], 1e-7, 100_000],
        [[-106.3, 35.3, -105.7, 35.9], 0, 17],
        [[-106.0, 35.6, -106.0, 35.6], 0, 50],
      ] as const) {
        const [a, b] = await ask((s) => s.featuresInBox(id, box, minSize, limit))
        expect(b.matched).toBe(a.matched)
        expect(plain(b.features)).toEqual(plain(a.features))
      }
  })

  it('tileRows: the same stamp and rows', async () => {
    for (const id of ['bldg', 'wires', 'sites']) {
      const [a, b] = await ask((s) => s.tileRows(id))
      expect({ ...b, rows: null }).toEqual({ ...a, rows: null })
      const norm = (rows: Iterable<unknown[]>) =>
        [...rows].map((r) => r.map((v) => (v instanceof Uint8Array ? Buffer.from(v) : v)))
      expect(norm(b.rows)).toEqual(norm(a.rows))
    }
  })

  it('tileRows by box and countInBox (the render by blocks): the same rows and counts', async () => {
    const norm = (rows: Iterable<unknown[]>) =>
      [...rows].map((r) => r.map((v) => (v instanceof Uint8Array ? Buffer.from(v) : v)))
    for (const id of ['bldg', 'wires', 'sites'])
      for (const box of [
        [-106.1, 35.5, -105.9, 35.7],
        [-106.0, 35.6, -106.0, 35.6],
        [10, 10, 11, 11],
      ] as const) {
        const [a, b] = await ask((s) => s.tileRows(id, box))
        const rows = norm(a.rows)
        expect(norm(b.rows)).toEqual(rows)
        expect([a.count, b.count]).toEqual([rows.length, rows.length])
        const [ca, cb] = await ask((s) => s.countInBox(id, box, 1_000_000))
        expect([ca, cb]).toEqual([rows.length, rows.length])
        const [la, lb] = await ask((s) => s.countInBox(id, box, 3))
        expect([la, lb]).toEqual([Math.min(3, rows.length), Math.min(3, rows.length)])
      }
  })

  it('tiles cut by the tile engine from either store decode to the same features', async () => {
    const plans: [number, SlicePlan][] = [
      [10, { thin: false, minSize: 0, limit: 50_000, tolerance: 1 }],
      [12, { thin: true, minSize: 2 / (2 ** 12 * 512), limit: 200, tolerance: 3 }],
      [14, { thin: false, minSize: 0, limit: 50_000, tolerance: 1 }],
      [16, { thin: false, minSize: 0, limit: 50_000, tolerance: 1 }],
    ]
    let cut = 0
    for (const id of ['bldg', 'wires', 'sites']) {
      const d = fixtureCatalog.datasets.find((x) => x.id === id)
      if (!d) throw new Error(id)
      // Rows read to the end here: the SQLite iterator stays open (its connection busy) when the
      // tile data builder stops at the row count without asking for the end.
      const [da, db] = await ask(async (s) => {
        const rows = await s.tileRows(id)
        return buildTileData(d, { ...rows, rows: [...rows.rows] })
      })
      const ia = spatialIndex(da)
      const ib = spatialIndex(db)
      for (const [z, plan] of plans) {
        const cx = Math.floor(mercX(-106) * 2 ** z)
        const cy = Math.floor(mercY(35.6) * 2 ** z)
        for (const [x, y] of [
          [cx, cy],
          [cx + 1, cy],
          [cx, cy - 1],
        ] as const) {
          const ta = encodeSlice(da, ia, id, z, x, y, plan)
          const tb = encodeSlice(db, ib, id, z, x, y, plan)
          expect(Buffer.from(tb.pbf)).toEqual(Buffer.from(ta.pbf))
          const decoded = (pbf: Uint8Array) => {
            const layer = new VectorTile(new Pbf(pbf)).layers[id]
            return Array.from({ length: layer?.length ?? 0 }, (_, i) => {
              const f = layer?.feature(i)
              return { type: f?.type, properties: f?.properties, geometry: f?.loadGeometry() }
            })
          }
          expect(decoded(tb.pbf)).toEqual(decoded(ta.pbf))
          cut += ta.features
        }
      }
    }
    expect(cut).toBeGreaterThan(100)
  })

  it('aggregate cells and OGC extents', async () => {
    for (const z of [4, 6, 8, 9]) {
      const x = Math.floor(mercX(-106) * 2 ** z)
      const y = Math.floor(mercY(35.6) * 2 ** z)
      const [a, b] = await ask(async (s) => (await s.cells('bldg', z, x, y)).cells)
      expect(a.length).toBeGreaterThan(0)
      expect(b).toEqual(a)
    }
    for (const d of fixtureCatalog.datasets) {
      const [a, b] = await ask(async (s) => s.ogc.extents(d, (await s.info(d.id)).version))
      expect(b).toEqual(a)
    }
  })
})
