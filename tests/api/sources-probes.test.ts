import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FeatureSource } from '../../src/server/sources/kinds/featureUpstream'
import { tilePixel, type ExternalSource } from '../../src/server/sources/upstreamUrl'
import { sourcesApp } from '../support/sourceServers'
import { AUTH, type TestApp } from './testApp'

// The status probes of the raster kinds (xyz, wms, wmts, arcgis-mapserver): one local upstream
// speaking each protocol is stopped and started again on the same port; /api/sources/status says
// unavailable (with the reason) and ok again without any tile being asked.

const seen: URL[] = []
const GEOJSON = {
  type: 'FeatureCollection',
  features: [
    { type: 'Feature', geometry: { type: 'Point', coordinates: [-106.5, 34.9] }, properties: { zone: 'Z1' } },
  ],
}
let port = 0
let server: http.Server | null = null

function handler(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://upstream')
  seen.push(url)
  const q = (k: string) => url.searchParams.get(k)
  if (url.pathname.startsWith('/xyz/')) {
    res.writeHead(200, { 'content-type': 'image/png' })
    return void res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  }
  if (url.pathname === '/wms' && q('REQUEST') === 'GetCapabilities' && q('SERVICE') === 'WMS') {
    res.writeHead(200, { 'content-type': 'text/xml' })
    return void res.end('<WMS_Capabilities version="1.3.0"/>')
  }
  if (url.pathname === '/wmts' && q('REQUEST') === 'GetCapabilities' && q('SERVICE') === 'WMTS') {
    res.writeHead(200, { 'content-type': 'text/xml' })
    return void res.end('<Capabilities version="1.0.0"/>')
  }
  if (url.pathname === '/arcgis/rest/services/Fire/MapServer' && q('f') === 'json') {
    res.writeHead(200, { 'content-type': 'application/json' })
    return void res.end(JSON.stringify({ currentVersion: 11.1, layers: [] }))
  }
  if (url.pathname === '/zones.geojson') {
    // Revalidated on every use (no-cache + ETag): a stopped upstream is noticed, the kept file served.
    if (req.headers['if-none-match'] === '"g1"') return void res.writeHead(304, { etag: '"g1"' }).end()
    res.writeHead(200, { 'content-type': 'application/geo+json', 'cache-control': 'no-cache', etag: '"g1"' })
    return void res.end(JSON.stringify(GEOJSON))
  }
  if (url.pathname === '/broken/MapServer') {
    // An ArcGIS server answers its errors as a 200 with an `error` body.
    res.writeHead(200, { 'content-type': 'application/json' })
    return void res.end(JSON.stringify({ error: { code: 500, message: 'Service Broken not started' } }))
  }
  res.writeHead(404).end()
}

async function startUpstream(): Promise<void> {
  server = http.createServer(handler)
  await new Promise<void>((resolve, reject) => {
    server!.once('error', reject)
    server!.listen(port, '127.0.0.1', resolve)
  })
  port = (server.address() as { port: number }).port
}

async function stopUpstream(): Promise<void> {
  const s = server
  server = null
  if (!s) return
  s.closeAllConnections()
  await new Promise<void>((resolve) => s.close(() => resolve()))
}

const base = { attribution: 'Test', minzoom: 3, maxzoom: 12, allowPrivateNetwork: true } as const
let t: TestApp

beforeAll(async () => {
  await startUpstream()
  const u = `http://127.0.0.1:${port}`
  const sources: ExternalSource[] = [
    { ...base, id: 'p_xyz', type: 'xyz', url: `${u}/xyz/{z}/{x}/{y}.png` },
    { ...base, id: 'p_wms', type: 'wms', url: `${u}/wms`, layers: 'zones' },
    { ...base, id: 'p_wmts', type: 'wmts', url: `${u}/wmts`, layer: 'fire' },
    { ...base, id: 'p_arcgis', type: 'arcgis-mapserver', url: `${u}/arcgis/rest/services/Fire/MapServer` },
    { ...base, id: 'p_broken', type: 'arcgis-mapserver', url: `${u}/broken/MapServer` },
  ]
  // Probe on every status request (the default waits 15 s between probes of one source).
  const featureSources: FeatureSource[] = [
    { ...base, id: 'p_geojson', type: 'geojson', url: `${u}/zones.geojson` },
  ]
  t = await sourcesApp({ sources, featureSources, env: { EMBERLINE_SOURCE_PROBE_MS: '0' } })
}, 60_000)

afterAll(async () => {
  await t?.close()
  await stopUpstream()
})

type Status = { id: string; state: string; message?: string }
async function status(): Promise<Record<string, Status>> {
  const res = await t.app.inject({ url: '/api/sources/status', headers: AUTH })
  expect(res.statusCode, res.body).toBe(200)
  const list = (res.json() as { sources: Status[] }).sources
  return Object.fromEntries(list.map((s) => [s.id, s]))
}

const RASTER = ['p_xyz', 'p_wms', 'p_wmts', 'p_arcgis']

describe('status probes of the raster kinds', () => {
  it('each kind is asked a cheap request: one tile at minzoom, WMS/WMTS GetCapabilities, the ArcGIS service JSON', async () => {
    seen.length = 0
    const s = await status()
    for (const id of RASTER) expect(s[id], id).toMatchObject({ state: 'ok' })
    const asked = seen.map((u) => `${u.pathname}?${u.searchParams.toString()}`)
    expect(asked).toContain('/xyz/3/0/0.png?')
    expect(asked.some((a) => a.startsWith('/wms?') && a.includes('REQUEST=GetCapabilities'))).toBe(true)
    expect(asked.some((a) => a.startsWith('/wmts?') && a.includes('REQUEST=GetCapabilities'))).toBe(true)
    expect(asked).toContain('/arcgis/rest/services/Fire/MapServer?f=json')
    // An ArcGIS error body is a failure, with the server's message.
    expect(s.p_broken).toMatchObject({ state: 'unavailable' })
    expect(s.p_broken!.message).toMatch(/Service Broken not started/)
  })

  it('upstream stopped → unavailable with the reason; started again → ok, no tile asked', async () => {
    await stopUpstream()
    const down = await status()
    for (const id of RASTER) {
      expect(down[id], id).toMatchObject({ state: 'unavailable' })
      expect(down[id]!.message, id).toMatch(/cannot reach upstream 127\.0\.0\.1:\d+/)
    }
    await startUpstream()
    seen.length = 0
    const up = await status()
    for (const id of RASTER) expect(up[id], id).toMatchObject({ state: 'ok' })
    expect(up[RASTER[0]!]!.message).toBeUndefined()
    expect(seen.some((u) => u.pathname.startsWith('/api/'))).toBe(false)
  })

  it('a feature source served from the cache while its upstream is stopped is unavailable, not ok', async () => {
    const { x, y } = tilePixel(-106.5, 34.9, 8)
    const tile = `/api/sources/p_geojson/tiles/8/${x}/${y}`
    expect((await status()).p_geojson).toMatchObject({ state: 'ok' })
    expect((await t.app.inject({ url: tile, headers: AUTH })).statusCode).toBe(200)
    await stopUpstream()
    try {
      // The kept file still draws the tile…
      const stale = await t.app.inject({ url: tile, headers: AUTH })
      expect(stale.statusCode).toBe(200)
      // …and the status says the upstream does not answer, after a tile as after a probe.
      const s = await status()
      expect(s.p_geojson).toMatchObject({ state: 'unavailable' })
      expect(s.p_geojson!.message).toMatch(/does not answer; cached data is served/)
    } finally {
      await startUpstream()
    }
    expect((await status()).p_geojson).toMatchObject({ state: 'ok' })
  })
})
