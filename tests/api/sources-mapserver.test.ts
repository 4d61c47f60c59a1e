import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { PNG } from 'pngjs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { tilePixel } from '../../src/server/sources/upstreamUrl'
import type { OgcFeaturesSource, WmsSource } from '../../src/shared/config'
import { startMapServer, type TestMapServer } from '../support/mapserver'
import { sourcesApp } from '../support/sourceServers'
import { AUTH, type TestApp } from './testApp'

// The WMS kind against a real outside server: Debian's MapServer (tests/support/mapserver.ts)
// serving tests/fixtures/mapserver/fire-zones.geojson (zone Z1 around Albuquerque, Z2 on the Jemez).

let ms: TestMapServer
let t: TestApp

function wms(id: string, extra: Partial<WmsSource> = {}): WmsSource {
  return {
    id,
    type: 'wms',
    url: ms.wmsUrl,
    layers: 'zones',
    attribution: 'Test MapServer',
    minzoom: 0,
    maxzoom: 18,
    allowPrivateNetwork: true,
    ...extra,
  }
}

/** MapServer's OGC API – Features collection (it answers JSON only when asked with f=json). */
let ogcZones: OgcFeaturesSource

beforeAll(async () => {
  ms = await startMapServer()
  ogcZones = {
    id: 'zones_ogc',
    type: 'ogc-features',
    url: `${ms.ogcApiUrl}/collections/zones`,
    attribution: 'Test MapServer',
    minzoom: 0,
    maxzoom: 18,
    allowPrivateNetwork: true,
  }
  const sources = [
    wms('zones_wms'),
    wms('zones_wms_gml', { infoFormat: 'application/vnd.ogc.gml' }),
    wms('zones_wms_111', { version: '1.1.1', infoFormat: 'text/plain' }),
  ]
  t = await sourcesApp({ sources, featureSources: [ogcZones] })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await ms?.close()
})

const get = (url: string) => t.app.inject({ url, headers: AUTH })

/** Counts of opaque pixels of a PNG. */
function opaquePixels(body: Buffer): { opaque: number; total: number; png: PNG } {
  const png = PNG.sync.read(body)
  let opaque = 0
  for (let i = 3; i < png.data.length; i += 4) if (png.data[i]! > 0) opaque++
  return { opaque, total: png.width * png.height, png }
}

// A point inside zone Z1 and one in no zone.
const INSIDE = { lon: -106.5, lat: 34.9 }
const OUTSIDE = { lon: -105.5, lat: 34.0 }

describe('MapServer test server (tests/support/mapserver.ts)', () => {
  it('serves WMS capabilities and OGC API – Features items of the fixture', async () => {
    const caps = await fetch(`${ms.wmsUrl}?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0`)
    expect(caps.status).toBe(200)
    const xml = await caps.text()
    expect(xml).toContain('<Name>zones</Name>')
    expect(xml).toContain('EPSG:3857')
    const items = await fetch(`${ms.ogcApiUrl}/collections/zones/items?f=json`)
    expect(items.status).toBe(200)
    const fc = (await items.json()) as { features: { properties: Record<string, unknown> }[] }
    expect(fc.features.map((f) => f.properties.zone_id).sort()).toEqual(['Z1', 'Z2'])
    expect(fc.features.find((f) => f.properties.zone_id === 'Z1')!.properties.score).toBe(87)
  })
})

describe('wms source from MapServer through the proxy', () => {
  it('a tile over the data is a real PNG with opaque pixels; a tile away from it is transparent', async () => {
    const z = 10
    const { x, y } = tilePixel(INSIDE.lon, INSIDE.lat, z)
    const res = await get(`/api/sources/zones_wms/tiles/${z}/${x}/${y}`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    const inside = opaquePixels(res.rawPayload)
    expect(inside.png.width).toBe(256)
    expect(inside.opaque).toBeGreaterThan(inside.total / 8)
    // The zone's fill colour (220 60 20) is there.
    const d = inside.png.data
    let fill = 0
    for (let i = 0; i < d.length; i += 4) if (d[i] === 220 && d[i + 1] === 60 && d[i + 2] === 20) fill++
    expect(fill).toBeGreaterThan(1000)
    const far = tilePixel(OUTSIDE.lon, OUTSIDE.lat, z)
    const away = await get(`/api/sources/zones_wms/tiles/${z}/${far.x}/${far.y}`)
    expect(away.statusCode).toBe(200)
    expect(opaquePixels(away.rawPayload).opaque).toBe(0)
  })

  it('info: GetFeatureInfo answered as popup attributes (JSON, GML and text from MapServer)', async () => {
    for (const id of ['zones_wms', 'zones_wms_gml', 'zones_wms_111']) {
      const res = await get(`/api/sources/${id}/info?lon=${INSIDE.lon}&lat=${INSIDE.lat}&z=10`)
      expect(res.statusCode, id).toBe(200)
      expect(res.headers['content-type'], id).toMatch(/^application\/json/)
      const body = res.json()
      expect(body.source, id).toBe(id)
      expect(body.features, id).toHaveLength(1)
      expect(body.features[0].attributes, id).toMatchObject({
        zone_id: 'Z1',
        name: 'Sandia Foothills',
        risk: 'high',
      })
      expect(String(body.features[0].attributes.score), id).toBe('87')
      const none = await get(`/api/sources/${id}/info?lon=${OUTSIDE.lon}&lat=${OUTSIDE.lat}&z=10`)
      expect(none.statusCode, id).toBe(200)
      expect(none.json().features, id).toEqual([])
    }
  })

  it('legend: GetLegendGraphic is the server PNG with the class swatch', async () => {
    const res = await get('/api/sources/zones_wms/legend')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/png')
    const { opaque, png } = opaquePixels(res.rawPayload)
    expect(png.width).toBeGreaterThan(10)
    expect(opaque).toBeGreaterThan(20)
  })
})

describe('ogc-features source from MapServer through the proxy', () => {
  it('records and vector tiles answer 200 with the features (items asked as JSON: MapServer answers 500 otherwise)', async () => {
    // The probe (the collection document, also asked as JSON) found it up before any layer opened.
    const status = (await get('/api/sources/status')).json() as { sources: { id: string; state: string }[] }
    expect(status.sources.find((s) => s.id === 'zones_ogc')).toMatchObject({ state: 'ok' })
    const records = await get('/api/sources/zones_ogc/records?limit=10')
    expect(records.statusCode, records.body).toBe(200)
    const page = records.json() as { records: Record<string, unknown>[]; total: number }
    expect(page.records.map((r) => r.zone_id).sort()).toEqual(['Z1', 'Z2'])
    expect(page.records.find((r) => r.zone_id === 'Z1')).toMatchObject({ name: 'Sandia Foothills' })
    const z = 10
    const { x, y } = tilePixel(INSIDE.lon, INSIDE.lat, z)
    const tile = await get(`/api/sources/zones_ogc/tiles/${z}/${x}/${y}`)
    expect(tile.statusCode, tile.body).toBe(200)
    const vt = new VectorTile(new Pbf(tile.rawPayload))
    const layer = vt.layers.zones_ogc!
    const zones = Array.from({ length: layer.length }, (_, i) => layer.feature(i).properties.zone_id)
    expect(zones).toEqual(['Z1'])
  })
})
