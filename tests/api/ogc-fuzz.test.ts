import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  badSpelling,
  badSpellingTable,
  NEVER_A_NUMBER,
  numericParams,
  sendSpelled,
  spelledRequest,
  type NumericParam,
} from './numberSpellings'
import { AUTH, seededApp, type TestApp } from './testApp'

// Whatever a client sends to the OGC API, TileJSON, styles or exports, the answer is below 500
// and nothing stored changes. Seeded, so a failure prints a reproducible case.
const SEED = 20261125
const RUNS = 150

let t: TestApp
const failures: string[] = []

beforeAll(async () => {
  t = await seededApp({ buildings: 300 })
}, 120_000)

afterAll(async () => {
  await t.close()
})

const nasty = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'NaN',
    '-1',
    '1e309',
    '9'.repeat(40),
    '1,2,3,4',
    '-181,0,0,0',
    '0,0,0,0,0,0',
    '..',
    '../..',
    '2025-03-05T00:00:00Z/..',
    "type = 'x'",
    "type LIKE '%\\'",
    "name LIKE '_%_'",
    'customers > 5 AND (',
    '((((((((((((((((((((((((a = 1))))))))))))))))))))))))',
    "'; DROP TABLE datasets; --",
    '__proto__',
    '%00',
    'cql2-text',
    'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.string({ maxLength: 60 }),
)

const collections = fc.constantFrom(
  'buildings',
  'critical_infrastructure',
  'thermal_hot_spots',
  'enhanced_powerline_safety_settings',
  'public_safety_power_shutoff',
  'nope',
  '%2e%2e',
)

function query(params: [string, string][]): string {
  return params.length
    ? `?${params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`
    : ''
}

const params = fc.array(
  fc.tuple(
    fc.oneof(
      {
        arbitrary: fc.constantFrom(
          'limit',
          'offset',
          'bbox',
          'datetime',
          'filter',
          'filter-lang',
          'bbox-crs',
          'crs',
          'f',
          'format',
          'filters',
        ),
        weight: 5,
      },
      { arbitrary: fc.string({ maxLength: 10 }), weight: 1 },
    ),
    nasty,
  ),
  { maxLength: 4 },
)

async function send(url: string): Promise<number> {
  const res = await t.app.inject({ url, headers: AUTH })
  if (res.statusCode >= 500) failures.push(`${url} → ${res.statusCode} ${res.body.slice(0, 200)}`)
  return res.statusCode
}

/** Every dataset's version, count and bbox, as text. */
async function infos(): Promise<string> {
  return JSON.stringify(await Promise.all(t.store.catalog.datasets.map(async (d) => t.store.info(d.id))))
}

describe('OGC API, TileJSON, styles and exports under fuzzing', () => {
  it('never answer 5xx and never change stored data', async () => {
    const before = await infos()
    await fc.assert(
      fc.asyncProperty(collections, nasty, params, async (c, id, ps) => {
        const q = query(ps)
        const p = encodeURIComponent(id)
        for (const url of [
          `/ogc/collections/${c}/items${q}`,
          `/ogc/collections/${c}/items/${p}${q}`,
          `/ogc/collections/${c}${q}`,
          `/ogc/collections/${c}/queryables${q}`,
          `/ogc/tiles/${p}${q}`,
          `/ogc/styles/${p}${q}`,
          `/api/export/${c}${q}`,
          `/ogc${q}`,
        ]) {
          expect(await send(url)).toBeLessThan(500)
        }
      }),
      { seed: SEED, numRuns: RUNS },
    )
    expect(failures).toEqual([])
    expect(await infos()).toBe(before)
  }, 300_000)
})

// Numbers in every spelling (issue #29): the OGC API's and the export's numeric parameters, read
// from the route table (items limit/offset), and the four numbers of `bbox`, refuse non-finite
// values, overflowing exponents, hex, signs, whitespace, values past their bounds and repetition
// with a 400 naming the parameter (`limit=Infinity` used to return every feature past the cap).
describe('OGC API and export numbers in every spelling', () => {
  let params: NumericParam[] = []
  const wrong: string[] = []
  beforeAll(() => {
    params = numericParams(t.app.routeTable).filter(
      (p) => p.url.startsWith('/ogc') || p.url.startsWith('/api/export'),
    )
  })

  async function refused(p: NumericParam, values: string[]): Promise<void> {
    const r = spelledRequest(p, values, params)
    const res = await sendSpelled(t.app, r, AUTH)
    if (res.status >= 500) failures.push(`${r.url} → ${res.status} ${res.body.slice(0, 200)}`)
    if (res.status !== 400 || res.parameter !== p.name)
      wrong.push(`${r.method} ${r.url} → ${res.status} ${res.body.slice(0, 160)}`)
  }

  it('finds the items limit and offset', () => {
    const names = params.map((p) => `${p.url} ${p.part}.${p.name}`)
    expect(names).toContain('/ogc/collections/:collectionId/items querystring.limit')
    expect(names).toContain('/ogc/collections/:collectionId/items querystring.offset')
  })

  it('refuses every bad spelling of every numeric parameter with a 400 naming it', async () => {
    for (const p of params) {
      for (const v of badSpellingTable(p.schema)) await refused(p, [v])
      await refused(p, ['1', '2'])
    }
    // Random ones, seeded.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...params).chain((p) => fc.tuple(fc.constant(p), badSpelling(p.schema))),
        async ([p, v]) => refused(p, [v]),
      ),
      { seed: SEED, numRuns: 300 },
    )
    expect(wrong.slice(0, 20)).toEqual([])
    expect(failures).toEqual([])
  }, 300_000)

  it('limit=Infinity no longer returns every feature past the cap, nor -Infinity none', async () => {
    for (const limit of ['Infinity', '-Infinity', '1e309', '0x10']) {
      const res = await t.app.inject({
        url: `/ogc/collections/buildings/items?limit=${limit}`,
        headers: AUTH,
      })
      expect(res.statusCode, limit).toBe(400)
      expect(res.json()).toMatchObject({ code: 'InvalidParameterValue', parameter: 'limit' })
    }
  })

  it('bbox: each of its numbers in every bad spelling is a 400 naming bbox', async () => {
    const valid = ['-107', '34', '-106', '35']
    const spellings = [...NEVER_A_NUMBER, ' -107', '-107 ', '+34', '\t34', '1e400', '0x22'].filter(
      (v) => !v.includes(','),
    )
    const bad = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom(...spellings))
    await fc.assert(
      fc.asyncProperty(bad, async ([i, v]) => {
        const box = valid.map((x, j) => (j === i ? v : x)).join(',')
        const res = await t.app.inject({
          url: `/ogc/collections/buildings/items?bbox=${encodeURIComponent(box)}`,
          headers: AUTH,
        })
        if (res.statusCode !== 400 || res.json<{ parameter?: string }>().parameter !== 'bbox')
          wrong.push(`bbox=${box} → ${res.statusCode} ${res.body.slice(0, 120)}`)
      }),
      { seed: SEED, numRuns: 200 },
    )
    // Plain decimals, with or without exponents, still work (GDAL writes %.18g: 1.0000000000000001e-05).
    for (const box of ['-107,34,-106,35', '-107.5,34.25,-106,35', '-1.0e2,3.4e1,-1.06e2,3.5e1']) {
      const res = await t.app.inject({ url: `/ogc/collections/buildings/items?bbox=${box}`, headers: AUTH })
      expect(res.statusCode, box).toBe(200)
    }
    expect(wrong).toEqual([])
  })
})
