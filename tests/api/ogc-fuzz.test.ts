import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
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
