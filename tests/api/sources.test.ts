import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WmsSource, XyzSource } from '../../src/shared/config'
import { closedPort, sourcesApp, startLocalServer, type LocalServer } from '../support/sourceServers'
import { AUTH, type TestApp } from './testApp'

// A real upstream on 127.0.0.1 (tiles, a fake WMS, slow, big, redirecting and failing answers)
// and the real app over it: every upstream request is recorded, so "no upstream request" is checked.

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('emberline test tile')])
const SECRET_HEADER = 'header-secret-4711'
const SECRET_TOKEN = 'query-secret-0815'
const LAST_MODIFIED = 'Fri, 27 Nov 2026 10:00:00 GMT'

interface Seen {
  path: string
  query: URLSearchParams
  headers: http.IncomingHttpHeaders
}
let seen: Seen[] = []
let down = false
let upstream: LocalServer
let port = 0

function serve(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://x')
  seen.push({ path: url.pathname, query: url.searchParams, headers: req.headers })
  const [, kind] = url.pathname.split('/')
  const png = (headers: Record<string, string> = {}) => {
    res.writeHead(200, {
      'content-type': 'image/png',
      'set-cookie': 'upstream=1',
      'x-internal': 'yes',
      ...headers,
    })
    res.end(PNG)
  }
  switch (kind) {
    case 'tiles':
      return png({ 'cache-control': 'max-age=60', etag: '"t1"' })
    case 'nostore':
      return png({ 'cache-control': 'no-store' })
    case 'slow':
      return void setTimeout(() => png({ 'cache-control': 'max-age=60' }), 250)
    case 'silent':
      return // never answers
    case 'badredirect':
      res.writeHead(302, { location: 'http://[oops/' })
      return void res.end()
    case 'html':
      res.writeHead(200, { 'content-type': 'text/html' })
      return void res.end('<script>alert(1)</script>')
    case 'big':
      res.writeHead(200, { 'content-type': 'image/png' })
      return void res.end(Buffer.alloc(10_000))
    case 'redirect':
      res.writeHead(302, { location: `http://localhost:${port}/tiles/1/1/1.png` })
      return void res.end()
    case 'status500':
      res.writeHead(500, { 'content-type': 'text/html' })
      return void res.end('<h1>Internal Server Error</h1><p>stack trace of the upstream</p>')
    case 'status503':
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '60' })
      return void res.end('maintenance')
    case 'etag':
      // Revalidation by ETag: 304 when the proxy sends the validator it was given.
      if (req.headers['if-none-match'] === '"e1"') return void res.writeHead(304, { etag: '"e1"' }).end()
      return png({ 'cache-control': 'max-age=0', etag: '"e1"' })
    case 'lastmod':
      // Revalidation by Last-Modified (no ETag): 304 when If-Modified-Since is the date it was given.
      if (req.headers['if-modified-since'] === LAST_MODIFIED) return void res.writeHead(304).end()
      return png({ 'cache-control': 'no-cache', 'last-modified': LAST_MODIFIED })
    case 'flaky':
      if (down) return void req.socket.destroy()
      return png({ 'cache-control': 'no-cache', etag: '"f1"' })
    case 'wms':
      if (url.searchParams.get('REQUEST') === 'GetFeatureInfo') {
        res.writeHead(200, { 'content-type': 'application/json' })
        return void res.end(
          JSON.stringify({ type: 'FeatureCollection', features: [{ properties: { wfpi: 42 } }] }),
        )
      }
      return png({ 'cache-control': 'max-age=60' })
    default:
      res.writeHead(404).end()
  }
}

function xyz(id: string, url: string, extra: Partial<XyzSource> = {}): XyzSource {
  return {
    id,
    type: 'xyz',
    url,
    attribution: 'Test tiles',
    minzoom: 0,
    maxzoom: 18,
    allowPrivateNetwork: true,
    ...extra,
  }
}

let t: TestApp
let base = ''
beforeAll(async () => {
  upstream = await startLocalServer(serve)
  port = upstream.port
  base = `http://127.0.0.1:${port}`
  const gonePort = await closedPort()
  const wms: WmsSource = {
    id: 'fire_wms',
    type: 'wms',
    url: `${base}/wms?map=fire`,
    layers: 'wfpi,roads',
    version: '1.3.0',
    params: { TIME: '2026-11-27' },
    attribution: 'Test WMS',
    minzoom: 0,
    maxzoom: 18,
    allowPrivateNetwork: true,
  }
  const sources = [
    xyz('tiles', `${base}/tiles/{z}/{x}/{y}.png`, {
      headers: { 'X-Api-Key': '${H10_KEY}' },
      query: { token: '${H10_TOKEN}' },
      minzoom: 2,
      maxzoom: 10,
    }),
    xyz('nostore', `${base}/nostore/{z}/{x}/{y}.png`),
    xyz('slow', `${base}/slow/{z}/{x}/{y}.png`),
    xyz('silent', `${base}/silent/{z}/{x}/{y}.png`, { timeoutMs: 300 }),
    xyz('badredirect', `${base}/badredirect/{z}/{x}/{y}.png`),
    xyz('badheader', `${base}/tiles/{z}/{x}/{y}.png`, { headers: { 'X-Key': '${H10_BAD}' } }),
    xyz('missing', `${base}/tiles/{z}/{x}/{y}.png`, { query: { key: '${H10_MISSING}' } }),
    xyz('html', `${base}/html/{z}/{x}/{y}.png`),
    xyz('big', `${base}/big/{z}/{x}/{y}.png`, { maxBytes: 2048 }),
    xyz('redirect', `${base}/redirect/{z}/{x}/{y}.png`),
    xyz('flaky', `${base}/flaky/{z}/{x}/{y}.png`),
    xyz('status500', `${base}/status500/{z}/{x}/{y}.png`),
    xyz('status503', `${base}/status503/{z}/{x}/{y}.png`),
    xyz('etag', `${base}/etag/{z}/{x}/{y}.png`),
    xyz('nothing', `${base}/nothing/{z}/{x}/{y}.png`),
    xyz('lastmod', `${base}/lastmod/{z}/{x}/{y}.png`),
    xyz('gone', `http://127.0.0.1:${gonePort}/{z}/{x}/{y}.png`),
    xyz('loopback', `${base}/tiles/{z}/{x}/{y}.png`, { allowPrivateNetwork: undefined }),
    xyz('private10', `http://10.20.30.40/tiles/{z}/{x}/{y}.png`, { allowPrivateNetwork: undefined }),
    xyz('ipv6loop', `http://[::1]:${port}/tiles/{z}/{x}/{y}.png`, { allowPrivateNetwork: undefined }),
    xyz('mapped', `http://[::ffff:127.0.0.1]:${port}/tiles/{z}/{x}/{y}.png`, {
      allowPrivateNetwork: undefined,
    }),
    xyz('localhost', `http://localhost:${port}/tiles/{z}/{x}/{y}.png`, { allowPrivateNetwork: undefined }),
    xyz('metadata', `http://169.254.169.254/latest/{z}/{x}/{y}`, { allowPrivateNetwork: undefined }),
    wms,
  ]
  t = await sourcesApp({ sources, env: { H10_KEY: SECRET_HEADER, H10_TOKEN: SECRET_TOKEN, H10_BAD: 'a\nb' } })
}, 60_000)
afterAll(async () => {
  await t?.close()
  await upstream?.close()
})

const get = (url: string, headers: Record<string, string> = AUTH) => t.app.inject({ url, headers })
const hits = (kind: string) => seen.filter((s) => s.path.startsWith(`/${kind}/`)).length

describe('source proxy /api/sources/<id>/', () => {
  it('needs a session (401 JSON) and makes no upstream request without one', async () => {
    seen = []
    const res = await get('/api/sources/tiles/tiles/3/1/2', {})
    expect(res.statusCode).toBe(401)
    expect(res.json().error).toBe('unauthorized')
    expect(seen).toEqual([])
  })

  it.each([
    '/api/sources/tiles/tiles/3/1/2',
    '/api/sources/tiles%2Ftiles/3/1/2',
    '/api/sources/tiles/tiles%2F3%2F1%2F2',
    '/api/sources/%74iles/tiles/3/1/2',
    '/api/%73ources/tiles/tiles/3/1/2',
    '/api/sources/tiles/tiles/3/1/%32',
    '/api/sources/%2574iles/tiles/3/1/2',
    '/api/sources/tiles%252Ftiles/3/1/2',
    '/api/sources/x/../tiles/tiles/3/1/2',
    '/api/sources/%2e%2e/sources/tiles/tiles/3/1/2',
    '/api/x/%2e%2e/sources/tiles/tiles/3/1/2',
    '/api/sources/tiles/tiles/3/1/2/',
    '/api/sources/tiles/tiles/3/1/2;jsessionid=1',
    '/api/sources/tiles/tiles/3/1/2%00',
    '//api/sources/tiles/tiles/3/1/2',
    '/API/SOURCES/tiles/tiles/3/1/2',
    '/api/sources/tiles/./tiles/3/1/2',
  ])('the session check holds however the URL is spelled: %s → no tile, no upstream request', async (url) => {
    seen = []
    const res = await get(url, {})
    expect([400, 401, 404], `${url} → ${res.statusCode}`).toContain(res.statusCode)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.rawPayload.includes(PNG)).toBe(false)
    expect(seen).toEqual([])
  })

  it('accepts the session cookie, as our own tiles do', async () => {
    expect((await get('/api/sources/tiles/tiles/3/1/3', { cookie: 'stytch_session=wrong' })).statusCode).toBe(
      401,
    )
    const res = await get('/api/sources/tiles/tiles/3/1/3', {
      cookie: 'other=1; stytch_session=test-session-token',
    })
    expect(res.statusCode).toBe(200)
  })

  it('a misconfigured source is 502 JSON, never 500: unset variable, unsendable header, unreadable redirect', async () => {
    const missing = await get('/api/sources/missing/tiles/2/1/1')
    expect(missing.statusCode).toBe(502)
    expect(missing.json().message).toBe('environment variable H10_MISSING is not set (needed by this source)')
    for (const id of ['badheader', 'badredirect']) {
      const res = await get(`/api/sources/${id}/tiles/2/1/1`)
      expect(res.statusCode, id).toBe(502)
      expect(res.json(), id).toMatchObject({ error: 'bad_gateway', source: id })
    }
  })

  it('serves the upstream bytes; credentials reach the upstream but never the client', async () => {
    seen = []
    const res = await get('/api/sources/tiles/tiles/3/1/2')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(PNG)).toBe(true)
    expect(res.headers['content-type']).toBe('image/png')
    expect(res.headers.etag).toBe('"t1"')
    expect(seen).toHaveLength(1)
    expect(seen[0]!.path).toBe('/tiles/3/1/2.png')
    expect(seen[0]!.headers['x-api-key']).toBe(SECRET_HEADER)
    expect(seen[0]!.query.get('token')).toBe(SECRET_TOKEN)
    // The browser's own credentials stay with us: neither our session token nor cookies go upstream.
    expect(seen[0]!.headers.authorization).toBeUndefined()
    expect(seen[0]!.headers.cookie).toBeUndefined()
    const echoed = JSON.stringify(res.headers) + res.body
    expect(echoed).not.toContain(SECRET_HEADER)
    expect(echoed).not.toContain(SECRET_TOKEN)
    expect(res.headers['set-cookie']).toBeUndefined()
    expect(res.headers['x-internal']).toBeUndefined()
    expect(res.headers['cache-control']).toMatch(/^private, max-age=(59|60)$/)
  })

  it('bad tile numbers are 400 naming the parameter; zooms outside the range 404', async () => {
    const bad = await get('/api/sources/tiles/tiles/3/8/1')
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ error: 'bad_request', parameter: 'x' })
    const text = await get('/api/sources/tiles/tiles/3/1/abc')
    expect(text.statusCode).toBe(400)
    expect(text.json().parameter).toBe('y')
    expect((await get('/api/sources/tiles/tiles/11/1/1')).statusCode).toBe(404)
    expect((await get('/api/sources/nosuch/tiles/3/1/1')).statusCode).toBe(404)
  })

  it('honours max-age: a second request makes no upstream request; If-None-Match gets 304', async () => {
    seen = []
    expect((await get('/api/sources/tiles/tiles/4/3/3')).headers['x-source-cache']).toBe('miss')
    const again = await get('/api/sources/tiles/tiles/4/3/3')
    expect(again.statusCode).toBe(200)
    expect(again.headers['x-source-cache']).toBe('hit')
    expect(again.rawPayload.equals(PNG)).toBe(true)
    expect(hits('tiles')).toBe(1)
    const cond = await get('/api/sources/tiles/tiles/4/3/3', { ...AUTH, 'if-none-match': '"t1"' })
    expect(cond.statusCode).toBe(304)
  })

  it('honours no-store: every request goes upstream', async () => {
    seen = []
    for (let i = 0; i < 3; i++) {
      const res = await get('/api/sources/nostore/tiles/2/1/1')
      expect(res.statusCode).toBe(200)
      expect(res.headers['cache-control']).toBe('no-store')
    }
    expect(hits('nostore')).toBe(3)
  })

  it('coalesces 50 concurrent identical cold requests into 1 upstream request', async () => {
    seen = []
    const all = await Promise.all(Array.from({ length: 50 }, () => get('/api/sources/slow/tiles/5/7/9')))
    for (const res of all) expect(res.rawPayload.equals(PNG)).toBe(true)
    expect(hits('slow')).toBe(1)
  })

  it('an answer that is not an image (an HTML page, a WMS exception) is 502 JSON, never served as ours', async () => {
    const res = await get('/api/sources/html/tiles/2/1/1')
    expect(res.statusCode).toBe(502)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toMatchObject({ error: 'bad_gateway', source: 'html' })
    expect(res.json().message).toBe('upstream answered text/html, not an image')
  })

  it('a body above maxBytes is 502 JSON', async () => {
    const res = await get('/api/sources/big/tiles/2/1/1')
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ error: 'bad_gateway', source: 'big' })
    expect(res.json().message).toMatch(/limit of 2048/)
  })

  it('an upstream slower than timeoutMs is 504 JSON', async () => {
    const started = Date.now()
    const res = await get('/api/sources/silent/tiles/2/1/1')
    expect(res.statusCode).toBe(504)
    expect(res.json()).toMatchObject({ error: 'gateway_timeout', source: 'silent' })
    expect(Date.now() - started).toBeLessThan(5000)
  })

  it('a redirect to another host is refused (502) and not followed', async () => {
    seen = []
    const res = await get('/api/sources/redirect/tiles/2/1/1')
    expect(res.statusCode).toBe(502)
    expect(res.json().message).toMatch(/redirect to localhost:\d+ refused/)
    expect(hits('tiles')).toBe(0)
  })

  it.each([
    ['loopback', /127\.0\.0\.1 is a loopback address/],
    ['private10', /10\.20\.30\.40 is a private address/],
    ['ipv6loop', /::1 is a loopback address/],
    ['mapped', /IPv4-mapped loopback/],
    ['localhost', /localhost resolves to .* \(loopback\)/],
    ['metadata', /169\.254\.169\.254 is a link-local address/],
  ])('without allowPrivateNetwork, %s is refused before any upstream request', async (id, why) => {
    seen = []
    const res = await get(`/api/sources/${id}/tiles/2/1/1`)
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ error: 'bad_gateway', source: id })
    expect(res.json().message).toMatch(why)
    expect(seen).toEqual([])
  })

  it('an upstream 5xx answer is a 502 JSON, never passed on (its body neither); an upstream 404 is our 404 JSON', async () => {
    for (const id of ['status500', 'status503']) {
      const res = await get(`/api/sources/${id}/tiles/2/1/1`)
      expect(res.statusCode, id).toBe(502)
      expect(res.json(), id).toMatchObject({ error: 'bad_gateway', source: id })
      expect(res.json().message, id).toMatch(new RegExp(`upstream answered HTTP ${id.slice(-3)}`))
      expect(res.body, id).not.toContain('stack trace')
    }
    const missing = await get('/api/sources/nothing/tiles/2/1/1')
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ error: 'not_found' })
  })

  it('revalidates with the upstream by ETag (If-None-Match) and by Last-Modified (If-Modified-Since): a 304 upstream serves the kept bytes', async () => {
    for (const [id, header, value] of [
      ['etag', 'if-none-match', '"e1"'],
      ['lastmod', 'if-modified-since', LAST_MODIFIED],
    ] as const) {
      seen = []
      const first = await get(`/api/sources/${id}/tiles/4/3/3`)
      expect(first.statusCode, id).toBe(200)
      expect(first.headers['x-source-cache'], id).toBe('miss')
      const second = await get(`/api/sources/${id}/tiles/4/3/3`)
      expect(second.statusCode, id).toBe(200)
      expect(second.headers['x-source-cache'], id).toBe('revalidated')
      expect(second.rawPayload.equals(PNG), id).toBe(true)
      expect(seen, id).toHaveLength(2)
      expect(seen[0]!.headers[header], id).toBeUndefined()
      expect(seen[1]!.headers[header], id).toBe(value)
    }
  })

  it('an upstream that is down is 502 JSON', async () => {
    const res = await get('/api/sources/gone/tiles/2/1/1')
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ error: 'bad_gateway', source: 'gone' })
    expect(res.json().message).toMatch(/cannot reach upstream/)
  })

  it('serves the stale cached answer while the upstream fails, and recovers', async () => {
    down = false
    const first = await get('/api/sources/flaky/tiles/3/2/2')
    expect(first.statusCode).toBe(200)
    down = true
    const stale = await get('/api/sources/flaky/tiles/3/2/2')
    expect(stale.statusCode).toBe(200)
    expect(stale.headers['x-source-cache']).toBe('stale')
    expect(stale.rawPayload.equals(PNG)).toBe(true)
    const uncached = await get('/api/sources/flaky/tiles/3/2/3')
    expect(uncached.statusCode).toBe(502)
    down = false
    const back = await get('/api/sources/flaky/tiles/3/2/2')
    expect(back.statusCode).toBe(200)
    expect(['miss', 'revalidated']).toContain(back.headers['x-source-cache'])
  })

  it('wms: our server builds GetMap for the tile EPSG:3857 box; legend is GetLegendGraphic', async () => {
    seen = []
    const res = await get('/api/sources/fire_wms/tiles/1/0/0')
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.equals(PNG)).toBe(true)
    const q = seen[0]!.query
    expect(Object.fromEntries(q)).toMatchObject({
      map: 'fire',
      SERVICE: 'WMS',
      REQUEST: 'GetMap',
      VERSION: '1.3.0',
      LAYERS: 'wfpi,roads',
      STYLES: '',
      FORMAT: 'image/png',
      TRANSPARENT: 'TRUE',
      CRS: 'EPSG:3857',
      BBOX: '-20037508.34,0.00,0.00,20037508.34',
      WIDTH: '256',
      HEIGHT: '256',
      TIME: '2026-11-27',
    })
    seen = []
    const legend = await get('/api/sources/fire_wms/legend')
    expect(legend.statusCode).toBe(200)
    expect(seen[0]!.query.get('REQUEST')).toBe('GetLegendGraphic')
    expect(seen[0]!.query.get('LAYER')).toBe('wfpi')
  })

  it('wms: GetFeatureInfo at the clicked pixel of the tile at z; bad or missing numbers are 400 naming them', async () => {
    seen = []
    // lon -90, lat 0 at z 1: tile 0/1, pixel (128, 0) of it.
    const res = await get('/api/sources/fire_wms/info?lon=-90&lat=0&z=1')
    expect(res.statusCode).toBe(200)
    // Answered as our popup JSON: the features' attributes, never the upstream body.
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual({ source: 'fire_wms', features: [{ attributes: { wfpi: 42 } }] })
    expect(Object.fromEntries(seen[0]!.query)).toMatchObject({
      REQUEST: 'GetFeatureInfo',
      QUERY_LAYERS: 'wfpi,roads',
      LAYERS: 'wfpi,roads',
      INFO_FORMAT: 'application/json',
      CRS: 'EPSG:3857',
      BBOX: '-20037508.34,-20037508.34,0.00,0.00',
      I: '128',
      J: '0',
      TIME: '2026-11-27',
    })
    for (const [query, parameter] of [
      ['lon=200&lat=0&z=1', 'lon'],
      ['lon=0x10&lat=0&z=1', 'lon'],
      ['lon=0&lat=89&z=1', 'lat'],
      ['lon=0&lat=0&z=1.5', 'z'],
      ['lon=0&lat=0', 'z'],
    ] as const) {
      const bad = await get(`/api/sources/fire_wms/info?${query}`)
      expect(bad.statusCode, query).toBe(400)
      expect(bad.json(), query).toMatchObject({ error: 'bad_request', parameter })
    }
  })
})
