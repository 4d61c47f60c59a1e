import zlib from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { layersConfig } from '../../src/shared/config'
import { defaultCatalog } from '../../src/server/store/catalog'
import { AUTH, seededApp, type TestApp } from './testApp'

let t: TestApp
beforeAll(async () => {
  t = await seededApp({ buildings: 3000 })
}, 120_000)
afterAll(async () => t.close())

function tileOf(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z
  const s = Math.sin((lat * Math.PI) / 180)
  return [
    z,
    Math.floor(((lon + 180) / 360) * n),
    Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n),
  ]
}

async function tile(
  path: string,
  [z, x, y]: [number, number, number],
  headers: Record<string, string> = AUTH,
) {
  return t.app.inject({ url: `/api/tiles/${path}/mvt/${z}/${x}/${y}`, headers })
}

function decode(body: Buffer): VectorTile {
  return new VectorTile(new Pbf(body))
}

/** A feature's centre-ish position: the first vertex of the dataset's first stored feature. */
async function firstPoint(datasetId: string): Promise<[number, number]> {
  const rec = (await t.store.records(datasetId, [], 1, 0)).records[0]
  const bbox = rec?.bbox as number[]
  return [((bbox[0] as number) + (bbox[2] as number)) / 2, ((bbox[1] as number) + (bbox[3] as number)) / 2]
}

const vectorSources = layersConfig.sources.filter((s) => s.type === 'mvt')

describe('vector tiles', () => {
  it('serves every vector source: layer named after the dataset, every field as a property, geometry in extent + buffer', async () => {
    for (const source of vectorSources) {
      const dataset = layersConfig.datasets.find((d) => d.id === source.dataset)
      if (!dataset || !('minzoom' in source)) continue
      const [lon, lat] = await firstPoint(dataset.id)
      const z = Math.min(Math.max(source.minzoom, 12), source.maxzoom)
      const path = 'demoPath' in source && source.demoPath ? source.demoPath : source.path
      const res = await tile(path, tileOf(lon, lat, z))
      expect(res.statusCode, `${source.id} z${z}`).toBe(200)
      expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile')
      const vt = decode(res.rawPayload)
      const layer = vt.layers[dataset.id]
      expect(layer, source.id).toBeDefined()
      if (!layer) continue
      expect(layer.length).toBeGreaterThan(0)
      expect(layer.extent).toBe(4096)
      for (let i = 0; i < layer.length; i++) {
        const f = layer.feature(i)
        for (const field of dataset.fields) {
          const value = f.properties[field.name]
          if (value !== undefined) expect(['string', 'number']).toContain(typeof value)
        }
        for (const ring of f.loadGeometry())
          for (const p of ring) {
            expect(p.x).toBeGreaterThanOrEqual(-64)
            expect(p.x).toBeLessThanOrEqual(4096 + 64)
            expect(p.y).toBeGreaterThanOrEqual(-64)
            expect(p.y).toBeLessThanOrEqual(4096 + 64)
          }
      }
      const props = Object.keys(layer.feature(0).properties)
      const expected = dataset.fields.map((f) => f.name).filter((n) => props.includes(n))
      expect(expected.length, `${source.id} properties ${props.join(',')}`).toBeGreaterThanOrEqual(
        Math.min(dataset.fields.length, 1),
      )
    }
  })

  it('keeps every attribute of the PSPS lines that styling and popups read', async () => {
    const [lon, lat] = await firstPoint('public_safety_power_shutoff')
    const res = await tile('public_safety_power_shutoff/next_psps_lines', tileOf(lon, lat, 12))
    const f = decode(res.rawPayload).layers.public_safety_power_shutoff?.feature(0)
    for (const key of [
      'identifier',
      'line_type',
      'customers_impacted',
      'forecasted_wind_gust',
      'forecasted_wind_gust_unit',
      'forecast_start',
    ]) {
      expect(f?.properties).toHaveProperty(key)
    }
  })

  it('gzips when asked, with ETag and Cache-Control; a matching If-None-Match answers 304', async () => {
    const [lon, lat] = await firstPoint('buildings')
    const xyz = tileOf(lon, lat, 14)
    const res = await tile('buildings', xyz, { ...AUTH, 'accept-encoding': 'gzip, deflate' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(res.headers['cache-control']).toContain('max-age')
    const etag = String(res.headers.etag)
    expect(etag).toMatch(/^".+"$/)
    const vt = decode(zlib.gunzipSync(res.rawPayload))
    expect(vt.layers.buildings?.length).toBeGreaterThan(0)
    const again = await tile('buildings', xyz, { ...AUTH, 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
  })

  it('keeps full footprints of a sparse layer', async () => {
    const [lon, lat] = await firstPoint('buildings')
    // 3000 buildings are below the default density threshold: footprints at every zoom.
    const res = await tile('buildings', tileOf(lon, lat, 10))
    const layer = decode(res.rawPayload).layers.buildings
    expect(layer?.feature(0).properties).toHaveProperty('area_ft2')
  })

  it('aggregates at low zoom and thins at middle zoom when the source asks for it', async () => {
    const base = defaultCatalog()
    const catalog = {
      ...base,
      sources: base.sources.map((s) =>
        s.dataset === 'buildings'
          ? { ...s, generalize: { aggregateMaxZoom: 11, thinMaxZoom: 13, thinFeatures: 40 } }
          : s,
      ),
    }
    const other = await seededApp({ buildings: 3000, catalog })
    try {
      const [lon, lat] = await firstPoint('buildings')
      const low = await other.app.inject({
        url: `/api/tiles/buildings/mvt/${tileOf(lon, lat, 10).join('/')}`,
        headers: AUTH,
      })
      const cells = decode(low.rawPayload).layers.buildings
      expect(cells?.length).toBeGreaterThan(0)
      let counted = 0
      for (let i = 0; i < (cells?.length ?? 0); i++) counted += Number(cells?.feature(i).properties.count)
      expect(counted).toBeGreaterThan(0)
      expect(cells?.feature(0).properties).not.toHaveProperty('area_ft2')
      const mid = await other.app.inject({
        url: `/api/tiles/buildings/mvt/${tileOf(lon, lat, 12).join('/')}`,
        headers: AUTH,
      })
      const thinned = decode(mid.rawPayload).layers.buildings
      expect(thinned?.length).toBeLessThanOrEqual(20)
      const full = await other.app.inject({
        url: `/api/tiles/buildings/mvt/${tileOf(lon, lat, 14).join('/')}`,
        headers: AUTH,
      })
      expect(decode(full.rawPayload).layers.buildings?.feature(0).properties).toHaveProperty('area_ft2')
    } finally {
      await other.close()
    }
  }, 60_000)

  it('answers 204 for an empty tile', async () => {
    const res = await tile('buildings', [14, 0, 0])
    expect(res.statusCode).toBe(204)
    expect(res.rawPayload.length).toBe(0)
  })

  it('answers 400 naming the parameter for out-of-range or non-integer x/y/z', async () => {
    for (const [xyz, parameter] of [
      ['5/32/1', 'x'],
      ['5/1/32', 'y'],
      ['5/1.5/1', 'x'],
      ['5/1/abc', 'y'],
      ['z/1/1', 'z'],
      ['5/-1/1', 'x'],
    ] as const) {
      const res = await t.app.inject({ url: `/api/tiles/buildings/mvt/${xyz}`, headers: AUTH })
      expect(res.statusCode, xyz).toBe(400)
      expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
    }
  })

  it('answers 404 outside the source zoom range and for unknown paths', async () => {
    expect((await tile('demo/asset_data/transmission_lines', [13, 1, 1])).statusCode).toBe(404)
    expect((await tile('buildings', [4, 1, 1])).statusCode).toBe(404)
    expect((await tile('no/such/path', [6, 1, 1])).statusCode).toBe(404)
  })

  it('needs a session: bearer header or the SDK session cookie', async () => {
    const [lon, lat] = await firstPoint('buildings')
    const xyz = tileOf(lon, lat, 14)
    expect((await tile('buildings', xyz, {})).statusCode).toBe(401)
    expect((await tile('buildings', xyz, { cookie: 'stytch_session=wrong' })).statusCode).toBe(401)
    expect(
      (await tile('buildings', xyz, { cookie: 'other=1; stytch_session=test-session-token' })).statusCode,
    ).toBe(200)
  })
})
