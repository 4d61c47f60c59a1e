import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { layersConfig } from '../../src/shared/config'
import { AUTH, filtersQuery, seededApp, type TestApp } from './testApp'

let t: TestApp
beforeAll(async () => {
  t = await seededApp()
}, 120_000)
afterAll(async () => t.close())

async function get(url: string, headers: Record<string, string> = AUTH) {
  const res = await t.app.inject({ url, headers })
  return { status: res.statusCode, body: res.json() as Record<string, unknown> }
}

interface Page {
  records: Record<string, unknown>[]
  total: number
}

describe('GET /api/data/<dataset>/records', () => {
  it('serves every dataset of the catalog with every field and a bbox', async () => {
    for (const d of layersConfig.datasets) {
      const { status, body } = await get(`/api/data/${d.id}/records?limit=3`)
      expect(status, d.id).toBe(200)
      const page = body as unknown as Page
      expect(page.total, d.id).toBeGreaterThan(0)
      const rec = page.records[0] as Record<string, unknown>
      for (const f of d.fields) expect(rec, `${d.id}.${f.name}`).toHaveProperty(f.name)
      expect(rec.bbox).toHaveLength(4)
    }
  })

  it('defaults to 100 records in a stable id order, and pages with limit/offset', async () => {
    const all = (await get('/api/data/buildings/records')).body as unknown as Page
    expect(all.records).toHaveLength(100)
    expect(all.total).toBe(2000)
    const page2 = (await get('/api/data/buildings/records?limit=10&offset=10')).body as unknown as Page
    expect(page2.records.map((r) => r.id)).toEqual(all.records.slice(10, 20).map((r) => r.id))
  })

  it('filters numeric columns with an operator and text columns as case-insensitive contains', async () => {
    const q = filtersQuery(
      { field: 'customers_impacted', value: 500, type: 'gt' },
      { field: 'spread_potential', value: 'HIGH' },
    )
    const page = (await get(`/api/data/public_safety_power_shutoff/records?${q}`)).body as unknown as Page
    expect(page.total).toBeGreaterThan(0)
    expect(page.total).toBe(page.records.length)
    for (const r of page.records) {
      expect(r.customers_impacted as number).toBeGreaterThan(500)
      expect(String(r.spread_potential).toLowerCase()).toContain('high')
    }
    const all = (await get('/api/data/public_safety_power_shutoff/records')).body as unknown as Page
    const expected = all.records.filter(
      (r) => (r.customers_impacted as number) > 500 && String(r.spread_potential).includes('high'),
    ).length
    expect(page.total).toBe(expected)
  })

  it('supports every numeric operator', async () => {
    const all = (await get('/api/data/weather_stations_raws/records?limit=1000')).body as unknown as Page
    const v = all.records[0]?.elevation_ft as number
    const ops: [string, (x: number) => boolean][] = [
      ['eq', (x) => x === v],
      ['neq', (x) => x !== v],
      ['gt', (x) => x > v],
      ['gte', (x) => x >= v],
      ['lt', (x) => x < v],
      ['lte', (x) => x <= v],
    ]
    for (const [type, test] of ops) {
      const page = (
        await get(
          `/api/data/weather_stations_raws/records?${filtersQuery({ field: 'elevation_ft', value: v, type })}`,
        )
      ).body as unknown as Page
      expect(page.total, type).toBe(all.records.filter((r) => test(r.elevation_ft as number)).length)
    }
  })

  it('accepts a numeric string value on a numeric column', async () => {
    const page = (
      await get(
        `/api/data/weather_stations_raws/records?${filtersQuery({ field: 'elevation_ft', value: '0', type: 'gt' })}`,
      )
    ).body as unknown as Page
    expect(page.total).toBeGreaterThan(0)
  })

  it('sorts by a filterable column with sort=field or sort=-field, pages in that order', async () => {
    const all = (await get('/api/data/public_safety_power_shutoff/records?limit=1000'))
      .body as unknown as Page
    const byValue = (desc: boolean) =>
      [...all.records]
        .sort((a, b) => {
          const x = a.customers_impacted as number
          const y = b.customers_impacted as number
          return x === y ? (a.id as number) - (b.id as number) : desc ? y - x : x - y
        })
        .map((r) => r.id)
    const desc = (
      await get('/api/data/public_safety_power_shutoff/records?limit=1000&sort=-customers_impacted')
    ).body as unknown as Page
    expect(desc.records.map((r) => r.id)).toEqual(byValue(true))
    const asc = (
      await get('/api/data/public_safety_power_shutoff/records?limit=5&offset=3&sort=customers_impacted')
    ).body as unknown as Page
    expect(asc.records.map((r) => r.id)).toEqual(byValue(false).slice(3, 8))
    expect(asc.total).toBe(all.total)
    const q = filtersQuery({ field: 'customers_impacted', value: 500, type: 'gt' })
    const filtered = (
      await get(`/api/data/public_safety_power_shutoff/records?${q}&sort=-customers_impacted`)
    ).body as unknown as Page
    const values = filtered.records.map((r) => r.customers_impacted as number)
    expect(values.length).toBeGreaterThan(1)
    expect(values.every((v) => v > 500)).toBe(true)
    expect(values).toEqual([...values].sort((a, b) => b - a))
  })

  it('serves the PSPS risk-score series as parallel lists crossing 0.8 both ways', async () => {
    const { status, body } = await get('/api/data/demo/public_safety_power_shutoff_risk_score/records')
    expect(status).toBe(200)
    const rec = (body.records as Record<string, unknown[]>[])[0] as Record<string, unknown[]>
    const ts = rec.timestamp as string[]
    const scores = rec.risk_score_psps as number[]
    expect(ts.length).toBe(scores.length)
    expect(ts.length).toBeGreaterThanOrEqual(48)
    expect(Date.parse(ts[1] as string) - Date.parse(ts[0] as string)).toBe(3_600_000)
    for (const s of scores) expect(s >= 0 && s <= 1).toBe(true)
    const ups = scores.filter((s, i) => i > 0 && (scores[i - 1] as number) < 0.8 && s >= 0.8).length
    const downs = scores.filter((s, i) => i > 0 && (scores[i - 1] as number) >= 0.8 && s < 0.8).length
    expect(ups).toBeGreaterThan(0)
    expect(downs).toBeGreaterThan(0)
  })
})

describe('records errors', () => {
  const cases: [string, string, string][] = [
    ['malformed JSON filter', `filters=${encodeURIComponent('{field:')}`, 'filters'],
    ['filter that is not an object', filtersQuery('[1,2]'), 'filters'],
    ['unknown field', filtersQuery({ field: 'nope', value: 'x' }), 'filters'],
    ['non-filterable field', filtersQuery({ field: 'identifier', value: 'x' }), 'filters'],
    ['bad operator', filtersQuery({ field: 'customers_impacted', value: 5, type: 'between' }), 'filters'],
    ['operator on a text column', filtersQuery({ field: 'line_type', value: 'x', type: 'gt' }), 'filters'],
    [
      'non-numeric value on a numeric column',
      filtersQuery({ field: 'customers_impacted', value: 'many', type: 'gt' }),
      'filters',
    ],
    ['negative offset', 'offset=-1', 'offset'],
    ['non-integer offset', 'offset=abc', 'offset'],
    ['limit zero', 'limit=0', 'limit'],
    ['limit over the maximum', 'limit=1001', 'limit'],
    ['sort by a non-filterable column', 'sort=identifier', 'sort'],
    ['sort by an unknown column', 'sort=-nope', 'sort'],
    ['sort with no column', 'sort=-', 'sort'],
    // Numbers in every spelling (issue #29): these were 500s (SQLite datatype mismatch) or taken.
    ['offset=Infinity', 'limit=10&offset=Infinity', 'offset'],
    ['offset=1e309', 'limit=10&offset=1e309', 'offset'],
    ['offset=-Infinity', 'offset=-Infinity', 'offset'],
    ['limit=Infinity', 'limit=Infinity', 'limit'],
    ['limit=-Infinity', 'limit=-Infinity', 'limit'],
    ['offset=0x10 (not 16)', 'offset=0x10', 'offset'],
    ['offset with a space', 'offset=%2016', 'offset'],
    ['offset with a plus', 'offset=%2B16', 'offset'],
    ['limit given twice', 'limit=1&limit=2', 'limit'],
    [
      'hex filter value on a numeric column',
      filtersQuery({ field: 'customers_impacted', value: '0x10', type: 'gt' }),
      'filters',
    ],
    [
      'Infinity filter value on a numeric column',
      filtersQuery({ field: 'customers_impacted', value: 'Infinity', type: 'lt' }),
      'filters',
    ],
    [
      'filter value with spaces on a numeric column',
      filtersQuery({ field: 'customers_impacted', value: ' 5', type: 'gt' }),
      'filters',
    ],
  ]
  for (const [name, query, parameter] of cases) {
    it(`400 naming '${parameter}' for ${name}`, async () => {
      const { status, body } = await get(`/api/data/public_safety_power_shutoff/records?${query}`)
      expect(status).toBe(400)
      expect(body.error).toBe('bad_request')
      expect(body.parameter).toBe(parameter)
      expect(typeof body.message).toBe('string')
    })
  }

  it('404 for an unknown dataset', async () => {
    const { status, body } = await get('/api/data/no_such_dataset/records')
    expect(status).toBe(404)
    expect(body.error).toBe('not_found')
  })

  it('401 without a token, with a bad token, and with a non-bearer scheme', async () => {
    const variants: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong' },
      { authorization: 'Basic abc' },
    ]
    for (const headers of variants) {
      const { status, body } = await get('/api/data/buildings/records', headers)
      expect(status).toBe(401)
      expect(body.error).toBe('unauthorized')
    }
  })
})

describe('health and meta', () => {
  it('answers health and meta without a session', async () => {
    expect((await get('/api/health', {})).status).toBe(200)
    const meta = await get('/api/meta', {})
    expect(meta.body).toEqual({ demo: true, referenceDate: '2025-03-05' })
  })

  it('answers unknown API paths with 404 JSON', async () => {
    const { status, body } = await get('/api/nothing-here', {})
    expect(status).toBe(404)
    expect(body.error).toBe('not_found')
  })
})
