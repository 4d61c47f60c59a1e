import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppStore } from '../AppStore'
import type { ColumnFilter, SortKey } from '../columnIndex'
import { decodeParts, mercX, mercY } from '../geometryCodec'
import type { FeatureInput } from '../Store'
import {
  buildings,
  fixtureCatalog,
  openTestStore,
  sites,
  storeKinds,
  wires,
  type OpenedStore,
} from './storeFixture'

// One suite, both stores: every assertion below runs on SQLite and on PostgreSQL alike.

const BLDG = buildings(600)
const WIRES = wires(80)
const SITES = sites(120)

/** The bbox of every located input feature of a dataset. */
function bboxOf(features: readonly FeatureInput[]): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity]
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      const [x, y] = c as [number, number]
      box[0] = Math.min(box[0], x)
      box[1] = Math.min(box[1], y)
      box[2] = Math.max(box[2], x)
      box[3] = Math.max(box[3], y)
    } else if (Array.isArray(c)) c.forEach(walk)
  }
  for (const f of features) if (f.geometry && 'coordinates' in f.geometry) walk(f.geometry.coordinates)
  return box
}

const lower = (v: unknown): string => (typeof v === 'string' ? v.toLowerCase() : '')

describe.each(storeKinds)('feature store on %s', (kind) => {
  let opened: OpenedStore
  let store: AppStore
  beforeAll(async () => {
    opened = await openTestStore(kind)
    store = opened.store
    expect(await store.isEmpty()).toBe(true)
    expect(await store.replaceDataset('bldg', BLDG)).toBe(600)
    expect(await store.replaceDataset('wires', WIRES)).toBe(80)
    expect(await store.replaceDataset('sites', SITES)).toBe(121)
  })
  afterAll(async () => opened.close())

  it('answers info: version, count and the bbox of the located features', async () => {
    expect(await store.isEmpty()).toBe(false)
    const info = await store.info('bldg')
    expect(info.version).toBe(1)
    expect(info.count).toBe(600)
    expect(info.bbox).toEqual(bboxOf(BLDG))
    expect((await store.info('sites')).bbox).toEqual(bboxOf(SITES))
  })

  it('pages records in id order with total, fields and a rounded bbox (null without geometry)', async () => {
    const page = await store.records('sites', [], 5, 2, undefined)
    expect(page.total).toBe(121)
    expect(page.records.map((r) => r.id)).toEqual([3, 4, 5, 6, 7])
    expect(page.records[1]).toEqual({ id: 4, kind: 'zone only', score: 1, bbox: null })
    const first = (await store.records('bldg', [], 1, 0, undefined)).records[0]
    expect(first?.name).toBe('Alder')
    expect(first?.bbox).toHaveLength(4)
    for (const v of first?.bbox as number[]) expect(Math.round(v * 1e6) / 1e6).toBe(v)
  })

  it('filters (case-insensitive contains, numeric comparisons) with exact totals', async () => {
    const expectTotal = async (filters: ColumnFilter[], keep: (p: Record<string, unknown>) => boolean) => {
      const want = BLDG.filter((f) => keep(f.properties ?? {})).length
      const got = await store.records('bldg', filters, 10, 0, undefined)
      expect(got.total).toBe(want)
      expect(got.records.length).toBe(Math.min(10, want))
    }
    await expectTotal([{ field: 'name', op: 'contains', value: 'ALD' }], (p) => lower(p.name).includes('ald'))
    await expectTotal([{ field: 'name', op: 'contains', value: 'ñan' }], (p) => lower(p.name).includes('ñan'))
    await expectTotal(
      [
        { field: 'height', op: 'gte', value: 10 },
        { field: 'height', op: 'lt', value: 30.5 },
      ],
      (p) => typeof p.height === 'number' && p.height >= 10 && p.height < 30.5,
    )
    await expectTotal(
      [{ field: 'height', op: 'neq', value: 0 }],
      (p) => typeof p.height === 'number' && p.height !== 0,
    )
  })

  it('sorts (missing last, ties by id) and pages a sorted result', async () => {
    const all = await store.records('bldg', [], 1000, 0, { field: 'height', descending: true })
    const heights = all.records.map((r) => r.height)
    const present = heights.filter((h): h is number => typeof h === 'number')
    expect(present).toEqual([...present].sort((a, b) => b - a))
    expect(heights.slice(present.length).every((h) => h === null)).toBe(true)
    const byName = await store.records('bldg', [{ field: 'height', op: 'gt', value: 0 }], 7, 3, {
      field: 'name',
      descending: false,
    })
    const full = await store.records('bldg', [{ field: 'height', op: 'gt', value: 0 }], 1000, 0, {
      field: 'name',
      descending: false,
    })
    expect(byName.records).toEqual(full.records.slice(3, 10))
    expect(byName.total).toBe(full.total)
  })

  it('finds features in a box (bbox meets it, size ≥ minSize, the largest when over the limit)', async () => {
    const box = [-106.1, 35.5, -105.95, 35.65] as const
    const meets = (f: FeatureInput) => {
      const [x0, y0, x1, y1] = bboxOf([f])
      return x1 >= box[0] && x0 <= box[2] && y1 >= box[1] && y0 <= box[3]
    }
    const want = BLDG.filter(meets).length
    const all = await store.featuresInBox('bldg', box, 0, 100_000)
    expect(all.matched).toBe(want)
    expect(all.features).toHaveLength(want)
    const few = await store.featuresInBox('bldg', box, 0, 5)
    expect(few.matched).toBe(want)
    expect(few.features.map((f) => f.id)).toEqual([...few.features.map((f) => f.id)].sort((a, b) => a - b))
    expect(few.features).toHaveLength(5)
    const f = few.features[0]
    expect(decodeParts(f?.geom as Uint8Array).length).toBeGreaterThan(0)
    expect(Object.keys(f?.properties ?? {})).toEqual(['name', 'height', 'built'])
  })

  it('keeps records without geometry out of tile rows, and every feature in allFeatures', async () => {
    const rows = await store.tileRows('sites')
    expect(rows.version).toBe(1)
    expect(rows.count).toBe(121)
    expect([...rows.rows]).toHaveLength(120)
    expect((await store.allFeatures('sites')).map((f) => f.id)).toEqual(
      Array.from({ length: 121 }, (_, i) => i + 1),
    )
  })

  it('answers aggregate cells that count every located feature at each aggregated zoom', async () => {
    // Every building lies in one tile at z4..z9 (the fixture spans 0.4°); its cells hold them all.
    for (const z of [4, 7, 9]) {
      const [x0, y0, x1, y1] = bboxOf(BLDG)
      let total = 0
      for (let x = Math.floor(mercX(x0) * 2 ** z); x <= Math.floor(mercX(x1) * 2 ** z); x++)
        for (let y = Math.floor(mercY(y1) * 2 ** z); y <= Math.floor(mercY(y0) * 2 ** z); y++)
          total += (await store.cells('bldg', z, x, y)).cells.reduce((sum, c) => sum + c.n, 0)
      expect(total).toBe(600)
    }
    expect((await store.cells('bldg', 12, 0, 0)).cells).toEqual([])
  })

  it('stores series and meta', async () => {
    await store.replaceSeries('risk', [
      { t: '2026-01-01T00:00:00Z', value: 1.5 },
      { t: '2026-01-01T01:00:00Z', value: -2 },
    ])
    expect(await store.series('risk')).toEqual([
      { t: '2026-01-01T00:00:00Z', value: 1.5 },
      { t: '2026-01-01T01:00:00Z', value: -2 },
    ])
    await store.replaceSeries('risk', [{ t: 'x', value: 3 }])
    expect(await store.series('risk')).toEqual([{ t: 'x', value: 3 }])
    expect(await store.series('none')).toEqual([])
    expect(await store.getMeta('k')).toBeUndefined()
    await store.setMeta('k', 'a')
    await store.setMeta('k', 'b')
    expect(await store.getMeta('k')).toBe('b')
  })

  it('stores grids: hours, version, list, delete', async () => {
    const raster = (v: number) => ({
      nx: 2,
      ny: 2,
      west: -107,
      south: 35,
      east: -106,
      north: 36,
      data: Float32Array.from([v, NaN, 1.5, -v]),
    })
    const version = await store.grids.replaceGrid('wind', [raster(1), raster(2)], 'test')
    expect(await store.grids.version('wind')).toBe(version)
    const h1 = await store.grids.grid('wind', 1)
    expect(h1?.version).toBe(version)
    expect(Array.from(h1?.data ?? [])).toEqual([2, NaN, 1.5, -2])
    expect(await store.grids.grid('wind', 5)).toBeUndefined()
    expect(await store.grids.list()).toEqual([
      { id: 'wind', hours: 2, nx: 2, ny: 2, version, source: 'test', refTime: null, validTimes: [] },
    ])
    // Provenance (#32): the run and each hour's valid time, replaced with the grid.
    const times = {
      refTime: '2026-11-27T12:00:00.000Z',
      validTimes: ['2026-11-27T13:00:00.000Z', '2026-11-27T14:00:00.000Z'],
    }
    await store.grids.replaceGrid('wind', [raster(1), raster(2)], 'https://example.test/a.grib2', times)
    expect(await store.grids.list()).toEqual([
      { id: 'wind', hours: 2, nx: 2, ny: 2, version, source: 'https://example.test/a.grib2', ...times },
    ])
    await expect(
      (async () => store.grids.replaceGrid('bad', [{ ...raster(1), nx: 3 }], 'test'))(),
    ).rejects.toThrow(/4 values for 3×2/)
    // Several grids in one transaction (wind u and v): a failure in the second keeps the first as it was.
    await store.grids.replaceGrids([
      { id: 'wind_u', hours: [raster(1)], source: 'a' },
      { id: 'wind_v', hours: [raster(2)], source: 'a' },
    ])
    const before = await store.grids.version('wind_u')
    await expect(
      (async () =>
        store.grids.replaceGrids([
          { id: 'wind_u', hours: [raster(3)], source: 'b' },
          { id: null as unknown as string, hours: [raster(4)], source: 'b' },
        ]))(),
    ).rejects.toThrow(/NOT NULL|null value/)
    expect(await store.grids.version('wind_u')).toBe(before)
    expect(Array.from((await store.grids.grid('wind_u'))?.data ?? [])).toEqual([1, NaN, 1.5, -1])
    await store.grids.deleteGrid('wind_u')
    await store.grids.deleteGrid('wind_v')
    await store.grids.deleteGrid('wind')
    expect(await store.grids.list()).toEqual([])
  })

  it('stores feed runs, 304s and failures', async () => {
    const summary = { newest: '2026-01-01T00:00:00Z' } as unknown as Parameters<
      AppStore['feeds']['saveRun']
    >[4]['summary']
    await store.feeds.saveRun(
      'fires',
      'sites',
      [
        {
          key: 'a',
          time: '2026-01-01T00:00:00Z',
          approximate: false,
          geometry: { type: 'Point', coordinates: [-106, 35] },
          props: { kind: 'fire', score: 2 },
        },
      ],
      ['kind', 'score'],
      { source: 'https://x/y', at: 't1', summary, etag: '"e"', lastModified: null },
    )
    expect(await store.feeds.rows('fires', ['kind', 'score'])).toEqual([
      {
        key: 'a',
        time: '2026-01-01T00:00:00Z',
        approximate: false,
        geometry: { type: 'Point', coordinates: [-106, 35] },
        props: { kind: 'fire', score: 2 },
      },
    ])
    await store.feeds.saveFailure('fires', 'sites', 'https://x/y', 't2', 'boom', null)
    let status = await store.feeds.status('fires')
    expect(status).toMatchObject({
      lastSuccessAt: 't1',
      lastError: 'boom',
      failures: 1,
      etag: '"e"',
      summary,
    })
    await store.feeds.saveNotModified('fires', 'sites', 't3')
    status = await store.feeds.status('fires')
    expect(status).toMatchObject({ lastSuccessAt: 't3', lastError: null, failures: 0 })
    expect((await store.feeds.allStatus()).map((s) => s.feed)).toEqual(['fires'])
    expect(await store.feeds.status('none')).toBeNull()
    expect(await store.feeds.rows('none', [])).toEqual([])
  })

  it('reads OGC rows, geometries, ids, scans and extents', async () => {
    const d = fixtureCatalog.datasets.find((x) => x.id === 'bldg')
    if (!d) throw new Error('fixture')
    const rows = await store.ogc.rows(d, [5, 3, 999])
    expect(rows.map((r) => r.id)).toEqual([5, 3])
    expect(rows[1]?.properties.name).toBe('BIRCH')
    const geoms = await store.ogc.geometries(d, [3, 999])
    expect([...geoms.keys()]).toEqual([3])
    expect(Buffer.from(geoms.get(3) as Uint8Array)).toEqual(Buffer.from(rows[1]?.geom as Uint8Array))
    expect(await store.ogc.allIds(d)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1))
    const tall = await store.ogc.scanIds(d, ['height'], ([h]) => typeof h === 'number' && h > 50)
    expect(tall.length).toBe(BLDG.filter((f) => Number(f.properties?.height) > 50).length)
    const ext = await store.ogc.extents(d, 1)
    expect(ext.ids.length).toBe(600)
    const times = BLDG.map((x) => x.properties?.built)
      .filter((v): v is string => typeof v === 'string')
      .map((v) => Date.parse(v))
    expect(ext.timeRange).toEqual([Math.min(...times), Math.max(...times)])
    expect(Math.min(...ext.minx)).toBe(bboxOf(BLDG)[0])
  })

  it('answers freshness: version, count, last write and the newest date', async () => {
    const d = fixtureCatalog.datasets.find((x) => x.id === 'bldg')
    if (!d) throw new Error('fixture')
    const f = await store.freshness(d)
    const newest = BLDG.map((x) => x.properties?.built)
      .filter((v): v is string => typeof v === 'string')
      .sort()
      .pop()
    expect(f).toMatchObject({ id: 'bldg', version: 1, count: 600, newest: { field: 'built', value: newest } })
    expect(typeof f.updatedAt).toBe('string')
  })

  it('keeps the old data and version when an import fails (bad feature after many good rows)', async () => {
    const before = await store.records('wires', [], 3, 0, undefined)
    function* bad(): Generator<FeatureInput> {
      yield* wires(2000, 99)
      yield { geometry: { type: 'Point', coordinates: [0, 0] }, properties: {}, line: 2001 }
    }
    await expect((async () => store.replaceDataset('wires', bad()))()).rejects.toThrow(/line 2001/)
    expect((await store.info('wires')).version).toBe(1)
    expect((await store.info('wires')).count).toBe(80)
    expect(await store.records('wires', [], 3, 0, undefined)).toEqual(before)
    // And the next import works (no staging table left in the way).
    expect(await store.replaceDataset('wires', WIRES)).toBe(80)
    expect((await store.info('wires')).version).toBe(2)
  })

  it('rolls back every write of a failed transaction', async () => {
    await expect(
      store.transaction(async () => {
        await store.replaceDataset('sites', SITES.slice(0, 10))
        await store.setMeta('tx', 'yes')
        throw new Error('abort')
      }),
    ).rejects.toThrow('abort')
    expect((await store.info('sites')).count).toBe(121)
    expect(await store.getMeta('tx')).toBeUndefined()
  })

  it('sorts text like the column index: case-insensitive, sort keys shared', async () => {
    const sort: SortKey = { field: 'name', descending: true }
    const page = await store.records('bldg', [], 1000, 0, sort)
    const names = page.records.map((r) => r.name).filter((n): n is string => typeof n === 'string')
    const keys = names.map((n) => n.toLowerCase())
    expect(keys).toEqual([...keys].sort().reverse())
  })
  it('stores what either store accepts: an open polygon ring, a zero-length line', async () => {
    const open = [
      [-106, 35],
      [-105.99, 35],
      [-105.99, 35.01],
      [-106, 35.01],
    ]
    expect(
      await store.replaceDataset('bldg', [
        { geometry: { type: 'Polygon', coordinates: [open] }, properties: { name: 'open' } },
      ]),
    ).toBe(1)
    const got = await store.featuresInBox('bldg', [-106.5, 34.5, -105.5, 35.5], 0, 10)
    expect(decodeParts(got.features[0]?.geom as Uint8Array)).toEqual([[open]])
    expect(
      await store.replaceDataset('wires', [
        {
          geometry: {
            type: 'LineString',
            coordinates: [
              [-106, 35],
              [-106, 35],
            ],
          },
          properties: {},
        },
      ]),
    ).toBe(1)
  })
})
