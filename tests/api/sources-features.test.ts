import fs from 'node:fs'
import path from 'node:path'
import { VectorTile } from '@mapbox/vector-tile'
import type { Feature, FeatureCollection, Point } from 'geojson'
import Pbf from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FeatureSource } from '../../src/server/sources/kinds/featureUpstream'
import { tileBounds } from '../../src/server/tiles/tileMath'
import { startKoop, type TestKoop } from '../support/koop'
import { sourcesApp, startLocalServer, type LocalServer } from '../support/sourceServers'
import { AUTH, seededApp, type TestApp } from './testApp'

// Koop (a real ArcGIS FeatureServer) and a plain static server (GeoJSON) on 127.0.0.1, the real
// app in front: its vector tiles and records are compared with the fixture and with Koop's own answers.

const FIXTURE = path.resolve(import.meta.dirname, '../fixtures/features/assets.geojson')
const fixture = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as FeatureCollection
type Props = Record<string, string | number>
const props = (f: Feature) => f.properties as Props
const points = fixture.features.filter((f) => f.geometry.type === 'Point')

let koop: TestKoop
/** Koop behind ArcGIS token security (generateToken, 498 without a valid token). */
let secured: TestKoop
const SECURED_PASSWORD = 'pw-koop-secret-77'
let files: LocalServer
let fileHits = 0
/**
 * OGC API servers that spell "JSON" differently: /gs/… takes only `f=application/geo+json` (GeoServer),
 * /plain/… only no `f` at all (Accept header), /down/… answers 503 to everything.
 */
let spellings: LocalServer
const spellingsSeen: { path: string; f: string | null }[] = []
let t: TestApp
/** Our own server, seeded, as a second OGC API – Features server (over real HTTP). */
let ogc: TestApp
let ogcBase = ''

function featureServer(id: string, extra: Partial<FeatureSource> = {}): FeatureSource {
  return {
    id,
    type: 'arcgis-featureserver',
    url: koop.layerUrl('assets'),
    attribution: 'Test utility',
    minzoom: 0,
    maxzoom: 16,
    allowPrivateNetwork: true,
    ...extra,
  } as FeatureSource
}

beforeAll(async () => {
  koop = await startKoop({ assets: FIXTURE })
  secured = await startKoop({ assets: FIXTURE }, { secured: { username: 'gis', password: SECURED_PASSWORD } })
  ogc = await seededApp({ buildings: 50 })
  ogcBase = await ogc.app.listen({ port: 0, host: '127.0.0.1' })
  files = await startLocalServer((req, res) => {
    fileHits++
    if (req.url !== '/assets.geojson') return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': 'application/geo+json', 'cache-control': 'max-age=60' })
    res.end(fs.readFileSync(FIXTURE))
  })
  const filesUrl = files.url
  spellings = await startLocalServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const f = url.searchParams.get('f')
    spellingsSeen.push({ path: url.pathname, f })
    const wanted = url.pathname.startsWith('/gs/')
      ? 'application/geo+json'
      : url.pathname.startsWith('/elsewhere/')
        ? 'json'
        : null
    if (url.pathname.startsWith('/down/')) return void res.writeHead(503).end('maintenance')
    if (url.pathname.startsWith('/silent/')) return // never answers
    if (url.pathname.startsWith('/big/')) {
      res.writeHead(200, { 'content-type': 'application/geo+json' })
      return void res.end(
        JSON.stringify({ type: 'FeatureCollection', features: [], pad: 'x'.repeat(50_000) }),
      )
    }
    if (f !== wanted) {
      res.writeHead(400, { 'content-type': 'application/json' })
      return void res.end(
        JSON.stringify({ code: 'InvalidParameterValue', description: `unknown format ${f}` }),
      )
    }
    res.writeHead(200, { 'content-type': 'application/geo+json', 'cache-control': 'no-store' })
    if (!url.pathname.endsWith('/items')) return void res.end(JSON.stringify({ id: 'zones', links: [] }))
    const offset = Number(url.searchParams.get('offset') ?? 0)
    const all = [1, 2, 3].map((n) => ({
      type: 'Feature',
      id: n,
      geometry: { type: 'Point', coordinates: [-106 + n / 10, 35] },
      properties: { zone: `Z${n}` },
    }))
    const features = all.slice(offset, offset + Number(url.searchParams.get('limit') ?? 10))
    // /elsewhere/ sends its next page to another host name (the same server, as localhost).
    const links = url.pathname.startsWith('/elsewhere/')
      ? [{ rel: 'next', href: `http://localhost:${spellings.port}/elsewhere/page2/items?f=json` }]
      : []
    res.end(
      JSON.stringify({
        type: 'FeatureCollection',
        features: links.length > 0 ? features.slice(0, 1) : features,
        numberMatched: links.length > 0 ? 9 : 3,
        links,
      }),
    )
  })
  const spelled = (id: string, prefix: string): FeatureSource => ({
    id,
    type: 'ogc-features',
    url: `${spellings.url}/${prefix}/collections/zones`,
    attribution: 'Test OGC API',
    minzoom: 0,
    maxzoom: 16,
    allowPrivateNetwork: true,
  })
  const featureSources: FeatureSource[] = [
    featureServer('assets_fs'),
    featureServer('assets_paged', { pageSize: 4 }),
    featureServer('assets_capped', { maxFeaturesPerTile: 5, pageSize: 3 }),
    featureServer('assets_open', { where: "status = 'open'", outFields: 'asset_id,status' }),
    featureServer('assets_private', { allowPrivateNetwork: undefined }),
    featureServer('assets_missing', { url: koop.layerUrl('no_such_file') }),
    featureServer('assets_secured', {
      url: secured.layerUrl('assets'),
      tokenExchange: { url: secured.tokenUrl, username: '${H12_USER}', password: '${H12_PASSWORD}' },
    }),
    featureServer('assets_static', { url: secured.layerUrl('assets'), token: '${H12_TOKEN}' }),
    {
      id: 'ci_ogc',
      type: 'ogc-features',
      url: `${ogcBase}/ogc/collections/critical_infrastructure`,
      headers: { Authorization: `Bearer ${AUTH.authorization.slice('Bearer '.length)}` },
      attribution: 'Our own OGC API',
      minzoom: 0,
      maxzoom: 16,
      pageSize: 50,
      allowPrivateNetwork: true,
    },
    {
      id: 'assets_geojson',
      type: 'geojson',
      url: `${filesUrl}/assets.geojson`,
      attribution: 'Test file',
      minzoom: 0,
      maxzoom: 16,
      allowPrivateNetwork: true,
    },
    {
      id: 'epss_ogc',
      type: 'ogc-features',
      url: `${ogcBase}/ogc/collections/enhanced_powerline_safety_settings`,
      headers: { Authorization: `Bearer ${AUTH.authorization.slice('Bearer '.length)}` },
      attribution: 'Our own OGC API',
      minzoom: 0,
      maxzoom: 16,
      allowPrivateNetwork: true,
    },
    spelled('gs_ogc', 'gs'),
    spelled('plain_ogc', 'plain'),
    spelled('down_ogc', 'down'),
    spelled('elsewhere_ogc', 'elsewhere'),
    { ...spelled('silent_ogc', 'silent'), timeoutMs: 300 },
    { ...spelled('big_ogc', 'big'), maxBytes: 10_000 },
  ]
  t = await sourcesApp({
    sources: [],
    featureSources,
    env: { H12_USER: 'gis', H12_PASSWORD: SECURED_PASSWORD, H12_TOKEN: 'static-stale-token' },
  })
}, 60_000)

afterAll(async () => {
  await t?.close()
  await koop?.close()
  await secured?.close()
  await ogc?.close()
  await files?.close()
  await spellings?.close()
})

const get = (url: string, headers: Record<string, string> = AUTH) => t.app.inject({ url, headers })

/** The tile z/x/y holding a point. */
function tileOf(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z
  const x = Math.floor(((lon + 180) / 360) * n)
  const s = Math.sin((lat * Math.PI) / 180)
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)
  return [z, x, y]
}

/** The fixture's points in tile z/x/y (with the tile buffer, 64/4096, as the tile is cut). */
function pointsIn([z, x, y]: [number, number, number]): Feature[] {
  const [w, s, e, n] = tileBounds(z, x, y, 64 / 4096)
  return points.filter((f) => {
    const [lon, lat] = (f.geometry as Point).coordinates as [number, number]
    return lon >= w && lon <= e && lat >= s && lat <= n
  })
}

function decode(body: Buffer, layer: string): Props[] {
  const vt = new VectorTile(new Pbf(body))
  expect(Object.keys(vt.layers)).toEqual([layer])
  const l = vt.layers[layer]!
  return Array.from({ length: l.length }, (_, i) => l.feature(i).properties as Props)
}

const ids = (rows: readonly Props[]) => rows.map((r) => String(r.asset_id)).sort()
const pointIds = (rows: readonly Props[]) => ids(rows.filter((r) => String(r.asset_id).startsWith('P-')))
const queries = () => koop.seen.filter((u) => u.pathname.endsWith('/FeatureServer/0/query'))

describe('feature sources are probed for the status route', () => {
  it('before any layer is opened, /api/sources/status is right: each source asked once, answering or not', async () => {
    koop.reset()
    fileHits = 0
    const status = await get('/api/sources/status')
    expect(status.statusCode, status.body).toBe(200)
    const of = (id: string) =>
      (status.json().sources as { id: string; state: string; message?: string }[]).find((x) => x.id === id)
    for (const id of ['assets_fs', 'assets_open', 'assets_secured', 'ci_ogc', 'assets_geojson'])
      expect(of(id), id).toMatchObject({ state: 'ok' })
    expect(of('assets_missing')).toMatchObject({ state: 'unavailable' })
    expect(of('assets_private')!.message).toMatch(/loopback address/)
    expect(of('assets_static')!.message).toMatch(/498/)
    // The FeatureServer probe is the layer JSON (f=json), not a query.
    expect(
      koop.seen.some((u) => u.pathname.endsWith('/FeatureServer/0') && u.searchParams.get('f') === 'json'),
    ).toBe(true)
    expect(queries()).toHaveLength(0)
    // A GeoJSON source's probe reads the document (which the tiles then use): once.
    expect(fileHits).toBe(1)
  })
})

describe('arcgis-featureserver as vector tiles (Koop)', () => {
  const tile = tileOf(-120.5, 38.5, 9)

  it('a tile holds the features of its box with their attributes, in a layer named after the source', async () => {
    const expected = pointsIn(tile)
    expect(expected.length).toBeGreaterThan(3)
    expect(expected.length).toBeLessThan(points.length)
    const res = await get(`/api/sources/assets_fs/tiles/${tile.join('/')}.mvt`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile')
    const rows = decode(res.rawPayload, 'assets_fs')
    expect(pointIds(rows)).toEqual(ids(expected.map(props)))
    for (const f of expected) {
      const row = rows.find((r) => r.asset_id === props(f).asset_id)
      expect(row).toMatchObject(props(f))
    }
    // The feeder line crosses the tile too, clipped to it.
    expect(ids(rows)).toContain('L-1')
    // The query was a box in WGS 84 (the tile's, with its buffer), asked as GeoJSON.
    const q = queries().at(-1)!
    expect(q.searchParams.get('geometryType')).toBe('esriGeometryEnvelope')
    expect(q.searchParams.get('inSR')).toBe('4326')
    expect(q.searchParams.get('f')).toBe('geojson')
  })

  it('20 concurrent identical cold tile requests make one upstream query, and all get the same tile', async () => {
    const [lon, lat] = (points[0]!.geometry as Point).coordinates as [number, number]
    const cold = tileOf(lon, lat, 13)
    koop.reset()
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => get(`/api/sources/assets_fs/tiles/${cold.join('/')}`)),
    )
    for (const a of answers) expect(a.statusCode).toBe(200)
    for (const a of answers) expect(a.rawPayload.equals(answers[0]!.rawPayload)).toBe(true)
    expect(queries()).toHaveLength(1)
  })

  it('without extension the same tile; a tile with no features is 204', async () => {
    const res = await get(`/api/sources/assets_fs/tiles/${tile.join('/')}`)
    expect(res.statusCode).toBe(200)
    expect(pointIds(decode(res.rawPayload, 'assets_fs'))).toEqual(ids(pointsIn(tile).map(props)))
    const empty = await get(`/api/sources/assets_fs/tiles/${tileOf(10, -30, 9).join('/')}`)
    expect(empty.statusCode).toBe(204)
  })

  it('pages through the upstream (resultOffset/resultRecordCount) until a short page', async () => {
    const z8 = tileOf(-120.5, 38.5, 6)
    const expected = pointsIn(z8)
    koop.reset()
    const res = await get(`/api/sources/assets_paged/tiles/${z8.join('/')}`)
    expect(res.statusCode).toBe(200)
    expect(pointIds(decode(res.rawPayload, 'assets_paged'))).toEqual(ids(expected.map(props)))
    const pages = queries()
    const inBox = expected.length + 1 // the feeder line
    expect(pages).toHaveLength(Math.floor(inBox / 4) + 1)
    expect(pages.map((p) => Number(p.searchParams.get('resultOffset')))).toEqual(pages.map((_, i) => i * 4))
    expect(pages.every((p) => p.searchParams.get('resultRecordCount') === '4')).toBe(true)
  })

  it('caps the features of a tile (maxFeaturesPerTile): the first ones, X-Source-Truncated: true', async () => {
    const z6 = tileOf(-120.5, 38.5, 6)
    koop.reset()
    const res = await get(`/api/sources/assets_capped/tiles/${z6.join('/')}`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['x-source-truncated']).toBe('true')
    expect(decode(res.rawPayload, 'assets_capped')).toHaveLength(5)
    // 3 + 3 asked: no page beyond the cap (+1 to know there are more).
    expect(queries()).toHaveLength(2)
    const full = await get(`/api/sources/assets_fs/tiles/${z6.join('/')}`)
    expect(full.headers['x-source-truncated']).toBeUndefined()
  })

  it("the source's where and outFields are sent and respected", async () => {
    const z6 = tileOf(-120.5, 38.5, 6)
    koop.reset()
    const res = await get(`/api/sources/assets_open/tiles/${z6.join('/')}`)
    const rows = decode(res.rawPayload, 'assets_open')
    const open = pointsIn(z6).filter((f) => props(f).status === 'open')
    expect(pointIds(rows)).toEqual(ids(open.map(props)))
    for (const r of rows) expect(Object.keys(r).sort()).toEqual(['asset_id', 'status'])
    expect(queries()[0]!.searchParams.get('where')).toBe("status = 'open'")
    expect(queries()[0]!.searchParams.get('outFields')).toBe('asset_id,status')
  })

  it('a private (loopback) upstream without allowPrivateNetwork is refused before any request', async () => {
    koop.reset()
    const res = await get(`/api/sources/assets_private/tiles/${tile.join('/')}`)
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ error: 'bad_gateway', source: 'assets_private' })
    expect(res.json().message).toMatch(/127\.0\.0\.1 is a loopback address/)
    expect(koop.seen).toHaveLength(0)
  })

  it('needs a session (401), bad tiles are 400 naming the parameter, upstream errors 502 JSON', async () => {
    koop.reset()
    expect((await get(`/api/sources/assets_fs/tiles/${tile.join('/')}`, {})).statusCode).toBe(401)
    expect(koop.seen).toHaveLength(0)
    const bad = await get('/api/sources/assets_fs/tiles/2/9/1')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toMatch(/x must be below 4/)
    const missing = await get(`/api/sources/assets_missing/tiles/${tile.join('/')}`)
    expect(missing.statusCode).toBe(502)
    expect(missing.json()).toMatchObject({ error: 'bad_gateway', source: 'assets_missing' })
    // The layer row's badge: the failed source is unavailable with the reason, the working one ok.
    expect((await get(`/api/sources/assets_fs/tiles/${tile.join('/')}`)).statusCode).toBe(200)
    const status = (await get('/api/sources/status')).json() as {
      sources: { id: string; state: string; message?: string }[]
    }
    const of = (id: string) => status.sources.find((x) => x.id === id)
    expect(of('assets_missing')).toMatchObject({ state: 'unavailable', message: missing.json().message })
    expect(of('assets_fs')).toMatchObject({ state: 'ok' })
  })
})

describe('arcgis-featureserver behind ArcGIS token security (Koop + generateToken)', () => {
  const tile = tileOf(-120.5, 38.5, 9)
  const exchanged = () => secured.exchanges.length
  const tokensSent = () => [
    ...new Set(secured.seen.map((u) => u.searchParams.get('token')).filter((t) => t !== null)),
  ]
  /** Nothing of the credentials in what the browser gets: status, headers and body. */
  const leaksNothing = (res: { headers: object; body: string }) => {
    const seen = JSON.stringify(res.headers) + res.body
    expect(seen).not.toContain(SECURED_PASSWORD)
    for (const token of tokensSent()) expect(seen).not.toContain(token)
    expect(seen).not.toMatch(/koop-token|static-stale-token/)
  }

  it('exchanges a token once (POST, credentials from env), sends it on every query, renews it after a 498', async () => {
    secured.reset()
    // Whatever token our server holds now (the status probe may have got one), the server drops it.
    secured.revokeToken()
    const before = exchanged()
    const res = await get(`/api/sources/assets_secured/tiles/${tile.join('/')}`)
    expect(res.statusCode).toBe(200)
    expect(pointIds(decode(res.rawPayload, 'assets_secured'))).toEqual(ids(pointsIn(tile).map(props)))
    expect(exchanged()).toBe(before + 1)
    const form = secured.exchanges.at(-1)!
    expect(form.get('username')).toBe('gis')
    expect(form.get('password')).toBe(SECURED_PASSWORD)
    // The credentials travel in the POST body, never in a URL.
    const exchange = secured.seen.find((u) => u.pathname.endsWith('/generateToken'))!
    expect(exchange.search).toBe('')
    const upstream = secured.seen.filter((u) => u.pathname.includes('/FeatureServer/'))
    expect(upstream.length).toBeGreaterThan(1) // layer JSON + query
    expect(upstream.every((u) => /^koop-token-/.test(u.searchParams.get('token') ?? ''))).toBe(true)
    leaksNothing(res)
    // Records reuse the same token.
    const records = await get('/api/sources/assets_secured/records?limit=3')
    expect(records.statusCode).toBe(200)
    expect(records.json().total).toBe(fixture.features.length)
    expect(exchanged()).toBe(before + 1)
    leaksNothing(records)
    // The server forgets the token: 498, one new exchange, and the answer still comes.
    secured.revokeToken()
    const after = await get('/api/sources/assets_secured/records?limit=4')
    expect(after.statusCode).toBe(200)
    expect(after.json().records).toHaveLength(4)
    expect(exchanged()).toBe(before + 2)
    leaksNothing(after)
    const status = await get('/api/sources/status')
    expect(status.json().sources.find((x: { id: string }) => x.id === 'assets_secured')).toMatchObject({
      state: 'ok',
    })
    leaksNothing(status)
  })

  it('a static token the server refuses is a 502 JSON naming the refusal, never the token', async () => {
    const res = await get(`/api/sources/assets_static/tiles/${tile.join('/')}`)
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ error: 'bad_gateway', source: 'assets_static' })
    expect(res.json().message).toMatch(/498.*Invalid token/)
    expect(secured.seen.at(-1)!.searchParams.get('token')).toBe('static-stale-token')
    leaksNothing(res)
  })
})

/** Koop's own answer to a records query: the attributes of one page, and the count. */
async function koopRecords(where: string, order: string, offset: number, count: number) {
  const base = `${koop.layerUrl('assets')}/query?where=${encodeURIComponent(where)}`
  const page = (await (
    await fetch(
      `${base}&outFields=*&returnGeometry=false&f=json&orderByFields=${encodeURIComponent(order)}` +
        `&resultOffset=${offset}&resultRecordCount=${count}`,
    )
  ).json()) as { features: { attributes: Props }[] }
  const total = ((await (await fetch(`${base}&returnCountOnly=true&f=json`)).json()) as { count: number })
    .count
  return { records: page.features.map((f) => ({ id: f.attributes.OBJECTID, ...f.attributes })), total }
}

const filtersParam = (...fs: object[]) =>
  fs.map((f) => `filters=${encodeURIComponent(JSON.stringify(f))}`).join('&')

describe('arcgis-featureserver records for attribute tables', () => {
  it('pages and sorts as Koop does (resultOffset, resultRecordCount, orderByFields)', async () => {
    const res = await get('/api/sources/assets_fs/records?offset=7&limit=9&sort=-kv')
    expect(res.statusCode).toBe(200)
    const body = res.json() as { records: Props[]; total: number }
    expect(body.total).toBe(fixture.features.length)
    expect(body.records).toHaveLength(9)
    expect(body).toEqual(await koopRecords('1=1', 'kv DESC,OBJECTID ASC', 7, 9))
    const kvs = body.records.map((r) => Number(r.kv))
    expect(kvs).toEqual([...kvs].sort((a, b) => b - a))
  })

  it('pages larger than the source page size are read in several upstream pages', async () => {
    koop.reset()
    const res = await get('/api/sources/assets_paged/records?offset=2&limit=10&sort=asset_id')
    const body = res.json() as { records: Props[]; total: number }
    const all = [...fixture.features.map(props)].sort((a, b) =>
      String(a.asset_id).localeCompare(String(b.asset_id)),
    )
    expect(body.records.map((r) => r.asset_id)).toEqual(all.slice(2, 12).map((r) => r.asset_id))
    expect(queries().filter((q) => q.searchParams.get('returnCountOnly') !== 'true')).toHaveLength(3)
  })

  it('our filter operators become a where clause: numeric comparisons, text contains any case, quotes escaped', async () => {
    const filters = filtersParam(
      { field: 'kv', value: 33, type: 'gte' },
      { field: 'kv', value: 230, type: 'neq' },
      { field: 'owner', value: "o'neil" },
    )
    koop.reset()
    const res = await get(`/api/sources/assets_fs/records?${filters}&limit=100&sort=asset_id`)
    expect(res.statusCode).toBe(200)
    const body = res.json() as { records: Props[]; total: number }
    const expected = fixture.features
      .map(props)
      .filter(
        (p) => Number(p.kv) >= 33 && Number(p.kv) !== 230 && String(p.owner).toLowerCase().includes("o'neil"),
      )
    expect(expected.length).toBeGreaterThan(1)
    expect(ids(body.records)).toEqual(ids(expected))
    expect(body.total).toBe(expected.length)
    expect(queries()[0]!.searchParams.get('where')).toBe(
      "(1=1) AND (kv >= 33) AND (kv <> 230) AND (UPPER(owner) LIKE '%O''NEIL%' ESCAPE '\\')",
    )
    const pct = await get(`/api/sources/assets_fs/records?${filtersParam({ field: 'name', value: '%' })}`)
    expect(pct.json().total).toBe(0)
    const text = await get(
      `/api/sources/assets_fs/records?${filtersParam({ field: 'name', value: 'POLE 1' })}`,
    )
    expect(text.json().total).toBe(10)
  })

  it('each numeric operator (eq, neq, gt, gte, lt, lte) is its SQL comparison, answered as Koop answers it', async () => {
    const kvs = fixture.features.map((f) => Number(props(f).kv)).sort((a, b) => a - b)
    const at = kvs[Math.floor(kvs.length / 2)]!
    const test: Record<string, (v: number) => boolean> = {
      eq: (v) => v === at,
      neq: (v) => v !== at,
      gt: (v) => v > at,
      gte: (v) => v >= at,
      lt: (v) => v < at,
      lte: (v) => v <= at,
    }
    const sql: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }
    for (const [op, keep] of Object.entries(test)) {
      koop.reset()
      const filters = filtersParam({ field: 'kv', value: at, type: op })
      const res = await get(`/api/sources/assets_fs/records?${filters}&limit=100&sort=asset_id`)
      expect(res.statusCode, op).toBe(200)
      const body = res.json() as { records: Props[]; total: number }
      const expected = fixture.features.map(props).filter((p) => keep(Number(p.kv)))
      expect(body.total, op).toBe(expected.length)
      expect(ids(body.records), op).toEqual(ids(expected))
      expect(queries()[0]!.searchParams.get('where'), op).toBe(`(1=1) AND (kv ${sql[op]} ${at})`)
    }
  })

  it('the source where is kept under the filters', async () => {
    const res = await get(
      `/api/sources/assets_open/records?${filtersParam({ field: 'kv', value: 60, type: 'lt' })}&limit=100`,
    )
    const expected = fixture.features.map(props).filter((p) => p.status === 'open' && Number(p.kv) < 60)
    expect(res.json().total).toBe(expected.length)
    expect(ids(res.json().records as Props[])).toEqual(ids(expected))
  })

  it('mistakes are 400 naming the parameter; upstream failures 502 JSON; no session 401', async () => {
    const cases: [string, string][] = [
      [`filters=${encodeURIComponent('{oops')}`, 'filters'],
      [filtersParam({ field: 'no_such_field', value: 1, type: 'eq' }), 'filters'],
      [filtersParam({ field: 'kv', value: 'x', type: 'gt' }), 'filters'],
      [filtersParam({ field: 'kv) OR (1=1', value: 1, type: 'eq' }), 'filters'],
      ['sort=-nope', 'sort'],
      ['limit=100000', 'limit'],
      ['offset=-1', 'offset'],
    ]
    for (const [query, parameter] of cases) {
      const res = await get(`/api/sources/assets_fs/records?${query}`)
      expect(res.statusCode, query).toBe(400)
      expect(JSON.stringify(res.json()), query).toContain(parameter)
    }
    expect((await get('/api/sources/assets_missing/records')).statusCode).toBe(502)
    expect((await get('/api/sources/assets_private/records')).statusCode).toBe(502)
    expect((await get('/api/sources/assets_fs/records', {})).statusCode).toBe(401)
  })
})

describe('geojson as vector tiles', () => {
  it('reads the file once (cached as the upstream allows) and cuts every tile from it', async () => {
    // Read once in all: by the status probe above (then kept, max-age=60), or by the first tile.
    const tile = tileOf(-120.5, 38.5, 9)
    const res = await get(`/api/sources/assets_geojson/tiles/${tile.join('/')}`)
    expect(res.statusCode).toBe(200)
    const rows = decode(res.rawPayload, 'assets_geojson')
    expect(pointIds(rows)).toEqual(ids(pointsIn(tile).map(props)))
    const far = tileOf(-100, 40, 9)
    const other = await get(`/api/sources/assets_geojson/tiles/${far.join('/')}.mvt`)
    const farIds = ids(pointsIn(far).map(props))
    expect(farIds.length).toBeGreaterThan(0)
    expect(ids(decode(other.rawPayload, 'assets_geojson'))).toEqual(farIds)
    expect(fileHits).toBe(1)
    expect((await get('/api/sources/assets_geojson/records')).statusCode).toBe(404)
  })
})

/** GET from the upstream OGC server itself (what it answers directly). */
async function upstream<T>(pathAndQuery: string): Promise<T> {
  const res = await fetch(`${ogcBase}${pathAndQuery}`, { headers: AUTH })
  expect(res.status, pathAndQuery).toBe(200)
  return (await res.json()) as T
}
type Items = { features: { id: number; properties: Props }[]; numberMatched: number }
const CI = '/ogc/collections/critical_infrastructure/items'

describe('ogc-features (our own OGC API server as the upstream)', () => {
  it('a tile holds the features of its box (bbox, next links followed page by page)', async () => {
    const all = await upstream<Items>(`${CI}?limit=1000`)
    expect(all.features.length).toBeGreaterThan(10)
    const first = await upstream<{ geometry: Point }>(
      `/ogc/collections/critical_infrastructure/items/${all.features[0]!.id}`,
    )
    const [lon, lat] = first.geometry.coordinates as [number, number]
    const tile = tileOf(lon, lat, 7)
    const box = tileBounds(tile[0], tile[1], tile[2], 64 / 4096).join(',')
    const expected = await upstream<Items>(`${CI}?limit=1000&bbox=${box}`)
    expect(expected.features.length).toBeGreaterThan(50) // more than one page of 50
    const res = await get(`/api/sources/ci_ogc/tiles/${tile.join('/')}`)
    expect(res.statusCode).toBe(200)
    const rows = decode(res.rawPayload, 'ci_ogc')
    const names = (list: readonly Props[]) => list.map((p) => `${p.type}|${p.name}`).sort()
    expect(names(rows)).toEqual(names(expected.features.map((f) => f.properties)))
  })

  it('records: offset/limit, numberMatched as total, our filters as CQL2 text — as the server answers', async () => {
    const all = await upstream<Items>(`${CI}?limit=1000`)
    const someType = String(all.features[0]!.properties.type)
    const word = someType.split(' ')[0]!.toUpperCase()
    const filters = filtersParam({ field: 'type', value: word })
    const res = await get(`/api/sources/ci_ogc/records?${filters}&offset=2&limit=5`)
    expect(res.statusCode).toBe(200)
    const body = res.json() as { records: Props[]; total: number }
    const cql = encodeURIComponent(`"type" LIKE '%${word}%'`)
    const direct = await upstream<Items>(`${CI}?filter-lang=cql2-text&filter=${cql}&offset=2&limit=5`)
    expect(body.total).toBe(direct.numberMatched)
    expect(body.records).toEqual(direct.features.map((f) => ({ id: f.id, ...f.properties })))
    // The same as our own records API over the same data.
    const ours = (
      await ogc.app.inject({
        url: `/api/data/critical_infrastructure/records?${filters}&limit=1`,
        headers: AUTH,
      })
    ).json() as { total: number }
    expect(body.total).toBe(ours.total)
  })

  it('each numeric operator (eq, neq, gt, gte, lt, lte) is its CQL2 comparison: totals as the server and as our own records API', async () => {
    // The EPSS circuits: `customers` is a number.
    const EPSS = '/ogc/collections/enhanced_powerline_safety_settings/items'
    const field = 'customers'
    const all = await upstream<Items>(`${EPSS}?limit=1000`)
    expect(all.features.length).toBeGreaterThan(5)
    const values = all.features.map((f) => Number(f.properties[field])).sort((a, b) => a - b)
    const at = values[Math.floor(values.length / 2)]!
    const cql: Record<string, string> = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' }
    const totals = new Set<number>()
    for (const [op, symbol] of Object.entries(cql)) {
      const filters = filtersParam({ field, value: at, type: op })
      const res = await get(`/api/sources/epss_ogc/records?${filters}&limit=5`)
      expect(res.statusCode, op).toBe(200)
      const body = res.json() as { records: Props[]; total: number }
      const filter = encodeURIComponent(`"${field}" ${symbol} ${at}`)
      const direct = await upstream<Items>(`${EPSS}?filter-lang=cql2-text&filter=${filter}&limit=5`)
      expect(body.total, op).toBe(direct.numberMatched)
      expect(body.records, op).toEqual(direct.features.map((f) => ({ id: f.id, ...f.properties })))
      const ours = (
        await ogc.app.inject({
          url: `/api/data/enhanced_powerline_safety_settings/records?${filters}&limit=1`,
          headers: AUTH,
        })
      ).json() as { total: number }
      expect(body.total, op).toBe(ours.total)
      totals.add(body.total)
    }
    // The operators select different rows (the comparison really reached the server).
    expect(totals.size).toBeGreaterThan(2)
  })

  it('a per-source timeout is a 504 JSON, a body above maxBytes a 502 JSON, for records and tiles', async () => {
    for (const path of ['records?limit=5', 'tiles/5/6/12']) {
      const slow = await get(`/api/sources/silent_ogc/${path}`)
      expect(slow.statusCode, path).toBe(504)
      expect(slow.json(), path).toMatchObject({
        source: 'silent_ogc',
        message: 'upstream did not answer within 300 ms',
      })
      const big = await get(`/api/sources/big_ogc/${path}`)
      expect(big.statusCode, path).toBe(502)
      expect(big.json(), path).toMatchObject({ source: 'big_ogc' })
      expect(big.json().message, path).toMatch(/above this source's limit of 10000/)
    }
  })

  it('a next link to another host is refused (502 JSON), never followed', async () => {
    spellingsSeen.length = 0
    const res = await get('/api/sources/elsewhere_ogc/records?limit=5')
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ source: 'elsewhere_ogc' })
    expect(res.json().message).toMatch(/host localhost:\d+ is not allowed/)
    expect(spellingsSeen.filter((r) => r.path.includes('/page2'))).toEqual([])
  })

  it('a server without the sorting conformance class: sort is a 400 saying so', async () => {
    const res = await get('/api/sources/ci_ogc/records?sort=name')
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/cannot sort/)
    expect(JSON.stringify(res.json())).toContain('sort')
  })
})

describe('ogc-features servers that spell JSON differently (GeoServer, Accept only)', () => {
  const itemsAsked = (prefix: string) =>
    spellingsSeen.filter((r) => r.path === `/${prefix}/collections/zones/items`).map((r) => r.f)

  it('each spelling is tried until one answers, and the one that worked is asked first next time', async () => {
    for (const [id, prefix, works] of [
      ['gs_ogc', 'gs', 'application/geo+json'],
      ['plain_ogc', 'plain', null],
    ] as const) {
      spellingsSeen.length = 0
      const first = await get(`/api/sources/${id}/records?limit=2`)
      expect(first.statusCode, first.body).toBe(200)
      expect((first.json() as { records: Props[] }).records.map((r) => r.zone)).toEqual(['Z1', 'Z2'])
      expect(itemsAsked(prefix).at(-1), id).toBe(works)
      // The next request (another page: not cached) asks the spelling that worked, once.
      spellingsSeen.length = 0
      const next = await get(`/api/sources/${id}/records?limit=2&offset=2`)
      expect(next.statusCode, next.body).toBe(200)
      expect((next.json() as { records: Props[] }).records.map((r) => r.zone)).toEqual(['Z3'])
      expect(itemsAsked(prefix), id).toEqual([works])
    }
  })

  it('an upstream that is down (503) is not asked again in other spellings: one request, a 502 JSON', async () => {
    spellingsSeen.length = 0
    const res = await get('/api/sources/down_ogc/records?limit=2')
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ source: 'down_ogc', message: 'upstream answered HTTP 503' })
    expect(itemsAsked('down')).toEqual(['json'])
  })
})
