import type { Feature, FeatureCollection } from 'geojson'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { filterableFields } from '../../src/server/store/catalog'
import { AUTH, filtersQuery, seededApp, type TestApp } from './testApp'

// OGC API – Features at /ogc, from outside (app.inject): every resource, paging, bbox, datetime,
// CQL2, and every bad parameter answered as a 400 OGC exception naming it.
let t: TestApp

beforeAll(async () => {
  t = await seededApp({ buildings: 1500 })
}, 120_000)

afterAll(async () => {
  await t.close()
})

async function get(url: string, headers: Record<string, string> = AUTH) {
  const res = await t.app.inject({ url, headers })
  return { status: res.statusCode, type: String(res.headers['content-type'] ?? ''), json: () => res.json() }
}

type Items = FeatureCollection & {
  numberMatched: number
  numberReturned: number
  links: { rel: string; href: string }[]
}

async function items(query: string, id = 'buildings'): Promise<Items> {
  const res = await get(`/ogc/collections/${id}/items${query ? `?${query}` : ''}`)
  expect(res.status, query).toBe(200)
  expect(res.type).toContain('application/geo+json')
  return res.json() as Items
}

async function recordsTotal(dataset: string, ...filters: unknown[]): Promise<number> {
  const res = await get(`/api/data/${dataset}/records?limit=1&${filtersQuery(...filters)}`)
  expect(res.status).toBe(200)
  return (res.json() as { total: number }).total
}

async function expectOgc400(url: string, parameter: string) {
  const res = await get(url)
  expect(res.status, url).toBe(400)
  const body = res.json() as { code: string; description: string; parameter: string }
  expect(body.code, url).toBe('InvalidParameterValue')
  expect(body.description, url).toEqual(expect.any(String))
  expect(body.parameter, url).toBe(parameter)
}

describe('landing page, conformance, OpenAPI', () => {
  it('links to the API description, conformance and collections', async () => {
    const res = await get('/ogc')
    expect(res.status).toBe(200)
    const body = res.json() as { title: string; links: { rel: string; href: string }[] }
    const rels = body.links.map((l) => l.rel)
    for (const rel of ['self', 'service-desc', 'conformance', 'data']) expect(rels).toContain(rel)
    expect(body.links.find((l) => l.rel === 'data')?.href).toMatch(/^http:\/\/[^/]+\/ogc\/collections$/)
  })

  it('declares Core, GeoJSON, OpenAPI 3.0 and CQL2 text filtering', async () => {
    const body = (await get('/ogc/conformance')).json() as { conformsTo: string[] }
    for (const c of [
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
      'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
      'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
      'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
    ])
      expect(body.conformsTo).toContain(c)
  })

  it('serves an OpenAPI 3.0 document generated from the route schemas', async () => {
    const res = await get('/ogc/api')
    expect(res.status).toBe(200)
    expect(res.type).toContain('application/vnd.oai.openapi+json')
    const doc = res.json() as {
      openapi: string
      paths: Record<string, { get: { parameters: { name: string; schema: Record<string, unknown> }[] } }>
    }
    expect(doc.openapi).toMatch(/^3\.0\./)
    const limit = doc.paths['/collections/{collectionId}/items']?.get.parameters.find(
      (p) => p.name === 'limit',
    )
    expect(limit?.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 10000, default: 100 })
    const names = doc.paths['/collections/{collectionId}/items']?.get.parameters.map((p) => p.name)
    expect(names).toEqual(
      expect.arrayContaining(['collectionId', 'bbox', 'datetime', 'offset', 'filter', 'filter-lang']),
    )
    expect(doc.paths['/collections/buildings/items']).toBeDefined()
    expect(doc.paths['/collections/{collectionId}/items/{featureId}']).toBeDefined()
  })
})

describe('collections', () => {
  it('lists one collection per dataset with a table, with title, description and extents', async () => {
    const body = (await get('/ogc/collections')).json() as {
      collections: {
        id: string
        title: string
        description: string
        extent: { spatial: { bbox: number[][] }; temporal?: { interval: (string | null)[][] } }
      }[]
    }
    const withTables = [...new Set(t.store.catalog.tables.map((x) => x.dataset ?? ''))].filter((d) =>
      t.store.dataset(d),
    )
    expect(body.collections.map((c) => c.id).sort()).toEqual(withTables.sort())
    const buildings = body.collections.find((c) => c.id === 'buildings')
    expect(buildings?.title).toBe('Buildings')
    expect(buildings?.description.length).toBeGreaterThan(10)
    expect(buildings?.extent.spatial.bbox[0]).toEqual((await t.store.info('buildings')).bbox)
    const hotspots = body.collections.find((c) => c.id === 'thermal_hot_spots')
    const interval = hotspots?.extent.temporal?.interval[0] ?? []
    expect(interval.every((v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)))).toBe(true)
  })

  it('describes one collection and its queryables (the filterable columns)', async () => {
    const res = await get('/ogc/collections/critical_infrastructure')
    expect(res.status).toBe(200)
    expect((res.json() as { id: string }).id).toBe('critical_infrastructure')
    const q = (await get('/ogc/collections/critical_infrastructure/queryables')).json() as {
      properties: Record<string, unknown>
    }
    expect(Object.keys(q.properties).sort()).toEqual(
      [...filterableFields(t.store.catalog, 'critical_infrastructure').keys()].sort(),
    )
  })

  it('answers an unknown collection with a 404 OGC exception', async () => {
    for (const url of [
      '/ogc/collections/nope',
      '/ogc/collections/nope/items',
      '/ogc/collections/nope/items/1',
    ]) {
      const res = await get(url)
      expect(res.status, url).toBe(404)
      expect(res.json()).toMatchObject({ code: 'NotFound' })
    }
  })
})

describe('items', () => {
  it('pages by limit/offset with numberMatched, numberReturned and next links', async () => {
    const first = await items('')
    expect(first.numberReturned).toBe(100)
    expect(first.features).toHaveLength(100)
    expect(first.numberMatched).toBe((await t.store.info('buildings')).count)
    const next = first.links.find((l) => l.rel === 'next')?.href ?? ''
    expect(next).toContain('offset=100')
    const second = await items(next.split('?')[1] ?? '')
    expect(second.features[0]?.id).not.toBe(first.features[0]?.id)
    // Following next links from a large page visits every feature exactly once.
    const seen = new Set<unknown>()
    let query = 'limit=400'
    for (let i = 0; i < 10 && query; i++) {
      const page = await items(query)
      for (const f of page.features) seen.add(f.id)
      query = page.links.find((l) => l.rel === 'next')?.href.split('?')[1] ?? ''
    }
    expect(seen.size).toBe(1500)
    const last = await items('offset=1400&limit=400')
    expect(last.numberReturned).toBe(100)
    expect(last.links.some((l) => l.rel === 'next')).toBe(false)
  })

  it('returns GeoJSON features with the records API raw values and the stored geometry', async () => {
    const page = await items('limit=5')
    const records = (await get('/api/data/buildings/records?limit=5')).json() as {
      records: Record<string, unknown>[]
    }
    page.features.forEach((f, i) => {
      const rec = records.records[i] ?? {}
      expect(f.id).toBe(rec.id)
      expect(f.geometry.type).toMatch(/Polygon/)
      const { id: _id, bbox: _bbox, ...fields } = rec
      expect(f.properties).toEqual(fields)
    })
  })

  it('one feature by id, 404 for an unknown one', async () => {
    const res = await get('/ogc/collections/critical_infrastructure/items/3')
    expect(res.status).toBe(200)
    const f = res.json() as Feature
    expect(f.id).toBe(3)
    expect(f.geometry.type).toBe('Point')
    for (const id of ['999999', 'abc', '-1', '1.5']) {
      const miss = await get(`/ogc/collections/critical_infrastructure/items/${id}`)
      expect(miss.status, id).toBe(404)
      expect(miss.json()).toMatchObject({ code: 'NotFound' })
    }
  })

  it('limits to a bbox (features whose extent meets it)', async () => {
    const box = [-106.8, 34.9, -106.4, 35.3]
    const page = await items(`bbox=${box.join(',')}&limit=10000`)
    expect(page.numberMatched).toBeGreaterThan(0)
    expect(page.numberMatched).toBeLessThan(1500)
    expect(page.numberReturned).toBe(page.numberMatched)
    const all = await items('limit=10000')
    const inBox = all.features.filter((f) => {
      const coords = (f.geometry as { coordinates: number[][][] }).coordinates.flat()
      const xs = coords.map((c) => c[0] as number)
      const ys = coords.map((c) => c[1] as number)
      return (
        Math.max(...xs) >= box[0]! &&
        Math.min(...xs) <= box[2]! &&
        Math.max(...ys) >= box[1]! &&
        Math.min(...ys) <= box[3]!
      )
    })
    expect(page.features.map((f) => f.id)).toEqual(inBox.map((f) => f.id))
  })

  it('filters by datetime instant and open intervals on the first date property', async () => {
    const all = await items('limit=10000', 'thermal_hot_spots')
    const times = all.features.map((f) => Date.parse(String(f.properties?.acquired))).sort((a, b) => a - b)
    const mid = times[Math.floor(times.length / 2)] as number
    const iso = new Date(mid).toISOString()
    const after = await items(`datetime=${iso}/..&limit=10000`, 'thermal_hot_spots')
    expect(after.numberMatched).toBe(times.filter((x) => x >= mid).length)
    expect(after.numberMatched).toBeGreaterThan(0)
    expect(after.numberMatched).toBeLessThan(times.length)
    const before = await items(`datetime=../${iso}&limit=10000`, 'thermal_hot_spots')
    expect(before.numberMatched).toBe(times.filter((x) => x <= mid).length)
    const exact = await items(`datetime=${iso}`, 'thermal_hot_spots')
    expect(exact.numberMatched).toBe(times.filter((x) => x === mid).length)
  })
})

describe('CQL2 on filterable columns', () => {
  const ci = 'critical_infrastructure'
  it('LIKE %text% equals the records API contains filter; = is a case-insensitive match', async () => {
    const like = await items(`filter=${encodeURIComponent("type LIKE '%station%'")}&limit=1`, ci)
    expect(like.numberMatched).toBe(await recordsTotal(ci, { field: 'type', value: 'station' }))
    expect(like.numberMatched).toBeGreaterThan(0)
    const eq = await items(`filter=${encodeURIComponent("type = 'hospital'")}&limit=10000`, ci)
    expect(eq.numberMatched).toBeGreaterThan(0)
    expect(eq.features.every((f) => String(f.properties?.type).toLowerCase() === 'hospital')).toBe(true)
    const ne = await items(`filter=${encodeURIComponent("type <> 'Hospital'")}&limit=1`, ci)
    expect(ne.numberMatched + eq.numberMatched).toBe((await t.store.info(ci)).count)
  })

  it('numeric comparisons joined by AND equal the records API numeric filters', async () => {
    const ds = 'enhanced_powerline_safety_settings'
    const res = await items(
      `filter=${encodeURIComponent('customers >= 100 AND (critical_infrastructure < 5)')}&limit=1`,
      ds,
    )
    expect(res.numberMatched).toBe(
      await recordsTotal(
        ds,
        { field: 'customers', value: 100, type: 'gte' },
        { field: 'critical_infrastructure', value: 5, type: 'lt' },
      ),
    )
  })

  it('combines a filter with bbox and datetime', async () => {
    const all = await items(`filter=${encodeURIComponent("type LIKE '%a%'")}&limit=10000`, ci)
    const boxed = await items(
      `filter=${encodeURIComponent("type LIKE '%a%'")}&bbox=-107,34,-105,36&limit=10000`,
      ci,
    )
    expect(boxed.numberMatched).toBeLessThanOrEqual(all.numberMatched)
    for (const f of boxed.features) {
      const [x, y] = (f.geometry as { coordinates: number[] }).coordinates as [number, number]
      expect(x >= -107 && x <= -105 && y >= 34 && y <= 36).toBe(true)
      expect(String(f.properties?.type).toLowerCase()).toContain('a')
    }
  })
})

describe('bad parameters: 400 with an OGC exception naming the parameter', () => {
  it.each([
    ['bbox=1,2,3', 'bbox'],
    ['bbox=a,b,c,d', 'bbox'],
    ['bbox=-106,40,-105,35', 'bbox'],
    ['bbox=-200,30,-100,40', 'bbox'],
    ['datetime=yesterday', 'datetime'],
    ['datetime=2025-02-30T00:00:00Z', 'datetime'],
    ['datetime=2025-03-06T00:00:00Z/2025-03-01T00:00:00Z', 'datetime'],
    ['datetime=../..', 'datetime'],
    ['limit=0', 'limit'],
    ['limit=10001', 'limit'],
    ['limit=abc', 'limit'],
    ['offset=-1', 'offset'],
    ['filter=' + encodeURIComponent('area_ft2 > 5'), 'filter'],
    ['filter=' + encodeURIComponent('nosuch = 1'), 'filter'],
    ['filter=' + encodeURIComponent("area_ft2 > 'x' OR"), 'filter'],
    ['filter-lang=cql2-json', 'filter-lang'],
    ['bbox-crs=EPSG:4326', 'bbox-crs'],
    ['f=html', 'f'],
    ['unknown=1', 'unknown'],
  ])('buildings items?%s → 400 (%s)', async (query, parameter) => {
    await expectOgc400(`/ogc/collections/buildings/items?${query}`, parameter)
  })

  it('CQL2 on a non-filterable column, a wrong type, or unsupported syntax', async () => {
    const ci = '/ogc/collections/critical_infrastructure/items?filter='
    for (const f of [
      "name = 'x' OR type = 'y'",
      "bbox = 'x'",
      'type > 5 AND type LIKE',
      "type = 'unterminated",
      'NOT type = 1',
    ]) {
      await expectOgc400(ci + encodeURIComponent(f), 'filter')
    }
    const psps = '/ogc/collections/public_safety_power_shutoff/items?filter='
    // identifier is in the PSPS table but not filterable there.
    await expectOgc400(psps + encodeURIComponent("identifier = 'PSPS-1'"), 'filter')
    await expectOgc400(psps + encodeURIComponent("customers_impacted = 'many'"), 'filter')
    await expectOgc400(psps + encodeURIComponent("customers_impacted LIKE '%1%'"), 'filter')
  })

  it('datetime on a collection without a date property', async () => {
    await expectOgc400('/ogc/collections/buildings/items?datetime=2025-03-05', 'datetime')
  })

  it('unknown parameters on metadata resources', async () => {
    await expectOgc400('/ogc/collections?bogus=1', 'bogus')
    await expectOgc400('/ogc/collections/buildings/items/1?limit=5', 'limit')
  })
})

describe('session check', () => {
  it('needs a bearer token on every OGC resource (no cookie)', async () => {
    for (const url of [
      '/ogc',
      '/ogc/conformance',
      '/ogc/api',
      '/ogc/collections',
      '/ogc/collections/buildings/items',
      '/ogc/collections/buildings/items/1',
      '/ogc/tiles',
      '/ogc/styles',
    ]) {
      expect((await get(url, {})).status, url).toBe(401)
      expect((await get(url, { authorization: 'Bearer forged' })).status, url).toBe(401)
      expect((await get(url, { cookie: 'stytch_session=test-session-token' })).status, url).toBe(401)
    }
  })

  it('answers an unknown OGC path with a JSON 404 (the API not-found handler; no data)', async () => {
    const res = await get('/ogc/nothing/here', {})
    expect(res.status).toBe(404)
    expect(res.json()).toMatchObject({ error: 'not_found' })
  })
})
