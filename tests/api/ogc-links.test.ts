import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, seededApp, type TestApp } from './testApp'

// OGC API and TileJSON links are absolute (desktop GIS clients follow them). They are built from
// EMBERLINE_PUBLIC_URL, never from a Host (or X-Forwarded-Host) header a client chose; without it
// a request's own origin is used only for a loopback host or one on EMBERLINE_ALLOWED_HOSTS.
let t: TestApp
const saved = {
  EMBERLINE_PUBLIC_URL: process.env.EMBERLINE_PUBLIC_URL,
  EMBERLINE_ALLOWED_HOSTS: process.env.EMBERLINE_ALLOWED_HOSTS,
  HOST: process.env.HOST,
  PORT: process.env.PORT,
}

function restoreEnv() {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
}

beforeAll(async () => {
  restoreEnv()
  delete process.env.EMBERLINE_PUBLIC_URL
  delete process.env.EMBERLINE_ALLOWED_HOSTS
  t = await seededApp({ buildings: 200 })
}, 120_000)

afterEach(() => {
  delete process.env.EMBERLINE_PUBLIC_URL
  delete process.env.EMBERLINE_ALLOWED_HOSTS
  delete process.env.HOST
  delete process.env.PORT
})

afterAll(async () => {
  restoreEnv()
  await t.close()
})

/** Every resource whose body carries links or URLs. */
const RESOURCES = [
  '/ogc',
  '/ogc/api',
  '/ogc/collections',
  '/ogc/collections/buildings',
  '/ogc/collections/buildings/queryables',
  '/ogc/collections/buildings/items?limit=2',
  '/ogc/collections/buildings/items?limit=2&offset=2',
  '/ogc/tiles',
  '/ogc/tiles/buildings_mvt',
  '/ogc/styles',
  '/api/tiles/buildings/tilejson.json',
  '/api/tiles/slope/png/tilejson.json',
]

/** Every absolute URL in a JSON body (links, tile templates, servers, $id). */
function urls(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) out.push(value)
  } else if (Array.isArray(value)) value.forEach((v) => urls(v, out))
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => urls(v, out))
  return out
}

async function linksOf(headers: Record<string, string>): Promise<string[]> {
  const style = (
    (await t.app.inject({ url: '/ogc/styles', headers: AUTH })).json() as { styles: { id: string }[] }
  ).styles[0]?.id
  const feature = (
    (await t.app.inject({ url: '/ogc/collections/buildings/items?limit=1', headers: AUTH })).json() as {
      features: { id: number }[]
    }
  ).features[0]?.id
  const all: string[] = []
  for (const url of [...RESOURCES, `/ogc/styles/${style}`, `/ogc/collections/buildings/items/${feature}`]) {
    const res = await t.app.inject({ url, headers: { ...AUTH, ...headers } })
    expect(res.statusCode, url).toBe(200)
    const found = urls(JSON.parse(res.body))
    expect(found.length, url).toBeGreaterThan(0)
    all.push(...found)
  }
  // Conformance class URIs and the tiling scheme are OGC's own addresses, not ours.
  return all.filter(
    (u) => !u.startsWith('http://www.opengis.net/') && !u.startsWith('https://json-schema.org/'),
  )
}

describe('OGC links never carry a forged Host', () => {
  it('without EMBERLINE_PUBLIC_URL: a foreign Host or X-Forwarded-Host appears in no link', async () => {
    process.env.HOST = '127.0.0.1'
    process.env.PORT = '8088'
    const forged: Record<string, string>[] = [
      { host: 'evil.example' },
      { host: 'evil.example:8080' },
      { host: '127.0.0.1:8088', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' },
    ]
    for (const headers of forged) {
      const links = await linksOf(headers)
      for (const link of links) {
        expect(link).not.toContain('evil.example')
        // The address the server listens on.
        expect(link.startsWith('http://127.0.0.1:8088/'), link).toBe(true)
      }
    }
  })

  it('without EMBERLINE_PUBLIC_URL: a loopback Host keeps its own origin (GDAL on the same machine)', async () => {
    for (const link of await linksOf({ host: 'localhost:9123' }))
      expect(link.startsWith('http://localhost:9123/'), link).toBe(true)
  })

  it('EMBERLINE_ALLOWED_HOSTS lets a listed host use its own origin, and no other', async () => {
    process.env.EMBERLINE_ALLOWED_HOSTS = 'maps.utility.example, gis.utility.example:8443'
    process.env.HOST = '10.0.0.5'
    process.env.PORT = '8080'
    for (const link of await linksOf({ host: 'gis.utility.example:8443' }))
      expect(link.startsWith('http://gis.utility.example:8443/'), link).toBe(true)
    for (const link of await linksOf({ host: 'evil.example' }))
      expect(link.startsWith('http://10.0.0.5:8080/'), link).toBe(true)
  })

  it('with EMBERLINE_PUBLIC_URL every link starts with it, whatever the Host', async () => {
    process.env.EMBERLINE_PUBLIC_URL = 'https://wildfire.utility.example/'
    for (const headers of [{ host: 'evil.example' }, { host: '127.0.0.1:8080' }]) {
      const links = await linksOf(headers)
      expect(links).toContain('https://wildfire.utility.example/ogc')
      for (const link of links) expect(link.startsWith('https://wildfire.utility.example/'), link).toBe(true)
    }
    const tj = (
      await t.app.inject({
        url: '/api/tiles/buildings/tilejson.json',
        headers: { ...AUTH, host: 'evil.example' },
      })
    ).json() as { tiles: string[] }
    expect(tj.tiles).toEqual(['https://wildfire.utility.example/api/tiles/buildings/mvt/{z}/{x}/{y}.pbf'])
  })
})
