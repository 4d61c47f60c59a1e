import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appAsStarted, type TestApp } from './testApp'

// Default deny, tested from outside: every route in Fastify's route table is requested without a
// credential, plainly and in every spelling an attacker would try; each one that is not on the
// public list answers 401. The public list is the whole of what may answer without a session.
const PUBLIC = [
  'GET /api/health',
  'GET /api/meta',
  'GET /api/ready',
  'GET /api/basemap/:z/:x/:y',
  'GET /.well-known/jwks.json',
  'GET /v1/b2b/sessions/jwks/:projectId',
  // The M2M token endpoint (client-credentials grant): its credential is in the body.
  'POST /v1/public/:projectId/oauth2/token',
  'GET /index.html',
  'GET /',
  'GET /assets/app.js',
]
const isPublic = (method: string, url: string) =>
  url.startsWith('/sdk/v1/') || PUBLIC.includes(`${method === 'HEAD' ? 'GET' : method} ${url}`)

interface Route {
  method: string
  url: string
}

/** Every route of the app, read from Fastify's own route table (printRoutes). */
function routeTable(app: FastifyInstance): Route[] {
  const lines = app.printRoutes({ commonPrefix: false }).split('\n')
  const stack: { depth: number; path: string }[] = []
  const routes: Route[] = []
  for (const line of lines) {
    const m = /^([│ ├└─]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line)
    if (!m?.[2]) continue
    const depth = (m[1] ?? '').length
    while (stack.length && (stack[stack.length - 1]?.depth ?? 0) >= depth) stack.pop()
    const full = (stack[stack.length - 1]?.path ?? '') + m[2]
    stack.push({ depth, path: full })
    for (const method of (m[3] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      routes.push({ method, url: full })
    }
  }
  return routes
}

const SAMPLE: Record<string, string> = {
  z: '3',
  x: '1',
  y: '2',
  dataset: 'buildings',
  id: '1',
  tilesetId: 'demo',
  projectId: 'project-x',
  publicToken: 'public-token-x',
}
const concrete = (url: string) => url.replace(/:(\w+)/g, (_m, name: string) => SAMPLE[name] ?? 'x')

/** Percent-encodes the first letter of one segment (`/api/data` → `/%61pi/data`). */
function encodeSegment(url: string, index: number): string {
  const parts = url.split('/')
  const seg = parts[index]
  if (!seg) return url
  const hex = (seg.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(2, '0')
  parts[index] = `%${hex}${seg.slice(1)}`
  return parts.join('/')
}

function spellings(url: string): string[] {
  const segments = url.split('/').length
  const out = [url]
  for (let i = 1; i < segments; i++) out.push(encodeSegment(url, i))
  out.push(
    url
      .split('/')
      .map((s, i) => (i === 0 ? s : encodeSegment(`/${s}`, 1).slice(1)))
      .join('/'),
  )
  out.push(url.toUpperCase())
  out.push(url.replace(/\/(\w)/g, (_m, c: string) => `/${c.toUpperCase()}`))
  out.push(url.replace('/', '//'))
  out.push(url.replace(/\/([^/]+)$/, '//$1'))
  out.push(url.replace(/^\/([^/]+)\//, '/$1/./'))
  out.push(`${url}/`)
  out.push(`${url};jsessionid=1`)
  out.push(`${url}?limit=1`)
  return [...new Set(out)]
}

let started: TestApp
let app: FastifyInstance
let routes: Route[]

beforeAll(async () => {
  // No verifier: the identity plugin's bundled verifier guards the routes, as in `npm start`.
  started = await appAsStarted(200)
  app = started.app
  routes = routeTable(app)
}, 120_000)

afterAll(() => started.close())

describe('the route table', () => {
  it('is read whole (data, tiles, operations, identity and static routes are all in it)', () => {
    const urls = new Set(routes.map((r) => r.url))
    for (const u of [
      '/api/data/:dataset/records',
      '/api/tiles/buildings/mvt/:z/:x/:y',
      '/api/psps/event',
      '/api/alerts/:id/ack',
      '/api/me/preferences',
      '/api/meta',
      '/sdk/v1/b2b/sessions/authenticate',
      '/assets/app.js',
    ]) {
      expect(urls, u).toContain(u)
    }
    expect(routes.length).toBeGreaterThan(80)
  })
})

describe('default deny', () => {
  it('answers 401 without a credential on every non-public route, however the URL is spelled', async () => {
    const leaks: string[] = []
    let requests = 0
    for (const route of routes) {
      if (isPublic(route.method, route.url)) continue
      for (const url of spellings(concrete(route.url))) {
        const res = await app.inject({
          method: route.method as 'GET',
          url,
          payload: route.method === 'GET' || route.method === 'HEAD' ? undefined : {},
        })
        requests++
        if (res.statusCode !== 401) leaks.push(`${route.method} ${url} → ${res.statusCode}`)
      }
    }
    expect(leaks).toEqual([])
    expect(requests).toBeGreaterThan(500)
  })

  it('answers 401 to a forged, malformed or cookie-only credential on data routes', async () => {
    const url = '/api/data/buildings/records?limit=1'
    for (const headers of [
      { authorization: 'Bearer forged' },
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { cookie: 'stytch_session=forged' },
    ]) {
      const res = await app.inject({ url, headers })
      expect(res.statusCode, JSON.stringify(headers)).toBe(401)
      expect(res.json()).toMatchObject({ error: 'unauthorized' })
    }
  })

  it('lets only the public list through, and that list holds no dataset', async () => {
    const open: string[] = []
    for (const route of routes) {
      if (route.method !== 'GET') continue
      const res = await app.inject({ method: 'GET', url: concrete(route.url) })
      if (res.statusCode !== 401) open.push(route.url)
    }
    for (const url of open) expect(isPublic('GET', url), url).toBe(true)
    expect(open).toContain('/api/health')
    expect(open.some((u) => u.startsWith('/api/data') || u.startsWith('/api/tiles'))).toBe(false)
  })

  it('answers an unknown (encoded) API path with a JSON 404 and other paths with the page shell, never data', async () => {
    for (const url of [
      '/%61pi/nothing/here',
      '/api/%64ata',
      '/api/data/',
      '/api/tiles/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const res = await app.inject({ url })
      // `%2e%2e` segments are dot segments to a URL parser: that one resolves to /etc/passwd, a page route.
      if (res.statusCode === 200) expect(res.body, url).toBe('<!doctype html><title>Emberline</title>')
      else expect([401, 404], url).toContain(res.statusCode)
    }
    const api = await app.inject({ url: '/%61pi/nothing/here' })
    expect(api.statusCode).toBe(404)
    expect(api.json()).toMatchObject({ error: 'not_found' })
    const page = await app.inject({ url: '/DailyWildfireRisk' })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('<title>Emberline</title>')
  })
})
