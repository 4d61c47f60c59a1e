import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type MitigationSettings, operationsConfig } from '../../src/shared/config'
import { mitigationRoutes } from '../../src/server/operations/mitigationRoutes'
import { AUTH, seededApp, testVerifier, type TestApp } from './testApp'

interface FactorScore {
  value: number | null
  normalised: number
  contribution: number
}
interface Row {
  id: number
  key: string
  bbox: number[]
  rank: number
  score: number
  risk: { value: number | null; normalised: number }
  factors: Record<string, FactorScore>
  missing: string[]
}
interface Ranking {
  weights: Record<string, number>
  factors: { id: string; label: string; weight: number; defaultWeight: number; share: number }[]
  risk: { field: string; label: string }
  count: number
  version: number
  rows: Row[]
}

const settings = operationsConfig.mitigation as MitigationSettings
let t: TestApp
beforeAll(async () => {
  t = await seededApp()
}, 120_000)
afterAll(async () => t.close())

async function get(url: string, headers: Record<string, string> = AUTH) {
  const res = await t.app.inject({ url, headers })
  return { status: res.statusCode, body: res.json() as Record<string, unknown> }
}
const ranking = async (query = '') => (await get(`/api/mitigation${query}`)).body as unknown as Ranking
const order = (r: Ranking) => r.rows.map((row) => row.key)

describe('GET /api/mitigation', () => {
  it('needs a session', async () => {
    for (const url of ['/api/mitigation', '/api/mitigation/circuits/1']) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Record<string, string>[]) {
        const { status, body } = await get(url, headers)
        expect(status, url).toBe(401)
        expect(body.error).toBe('unauthorized')
      }
    }
  })

  it('ranks every circuit with the default weights from config and the factor labels', async () => {
    const r = await ranking()
    const circuits = (await t.store.info(settings.dataset)).count
    expect(r.count).toBe(circuits)
    expect(r.rows).toHaveLength(circuits)
    expect(r.weights).toEqual(Object.fromEntries(settings.consequence.map((c) => [c.id, c.weight])))
    expect(r.factors.map((f) => f.label)).toEqual(settings.consequence.map((c) => c.label))
    expect(r.risk.label).toBe(settings.risk.label)
    expect(r.rows.map((row) => row.rank)).toEqual(r.rows.map((_, i) => i + 1))
    expect(new Set(r.rows.map((row) => row.id)).size).toBe(circuits)
  })

  it('rows are consistent: contributions add to the score, scores never rise down the list, ties by key', async () => {
    const r = await ranking()
    r.rows.forEach((row, i) => {
      const sum = Object.values(row.factors).reduce((s, f) => s + f.contribution, 0)
      expect(sum).toBeCloseTo(row.score, 12)
      expect(row.bbox).toHaveLength(4)
      const prev = r.rows[i - 1]
      if (prev) {
        expect(prev.score).toBeGreaterThanOrEqual(row.score)
        if (prev.score === row.score) expect(prev.key < row.key).toBe(true)
      }
    })
    const top = r.rows[0] as Row
    expect(top.score).toBeGreaterThan(0)
    expect(top.score).toBeLessThanOrEqual(1)
  })

  it('recomputes the score from the raw values and the maxima', async () => {
    const r = await ranking()
    const max = (f: (row: Row) => number) => Math.max(...r.rows.map(f))
    const riskMax = max((row) => row.risk.value ?? 0)
    const total = Object.values(r.weights).reduce((s, w) => s + w, 0)
    for (const row of r.rows.slice(0, 5)) {
      let expected = 0
      for (const c of settings.consequence) {
        const fMax = max((x) => x.factors[c.id]?.value ?? 0)
        expected += (c.weight * (row.factors[c.id]?.value ?? 0)) / fMax
      }
      expect(row.score).toBeCloseTo((((row.risk.value ?? 0) / riskMax) * expected) / total, 12)
    }
  })

  it('follows changed weights: one factor alone orders the circuits by that factor', async () => {
    const base = await ranking()
    for (const factor of settings.consequence) {
      const query = settings.consequence.map((c) => `weight.${c.id}=${c.id === factor.id ? 1 : 0}`).join('&')
      const r = await ranking(`?${query}`)
      expect(r.weights[factor.id]).toBe(1)
      expect(r.factors.find((f) => f.id === factor.id)?.share).toBe(1)
      const product = (row: Row) => row.risk.normalised * (row.factors[factor.id]?.normalised ?? 0)
      r.rows.forEach((row) => expect(row.score).toBeCloseTo(product(row), 12))
      if (factor.id !== settings.consequence[0]?.id) expect(order(r)).not.toEqual(order(base))
    }
  })

  it('refuses bad weights with 400 naming the parameter', async () => {
    const cases: [string, string][] = [
      ['?weight.nope=1', 'weight.nope'],
      ['?weight.customers=-1', 'weight.customers'],
      ['?weight.customers=lots', 'weight.customers'],
      ['?weight.customers=1&weight.customers=2', 'weight.customers'],
      ['?other=1', 'other'],
      [`?${settings.consequence.map((c) => `weight.${c.id}=0`).join('&')}`, 'weight'],
    ]
    for (const [query, parameter] of cases) {
      const { status, body } = await get(`/api/mitigation${query}`)
      expect(status, query).toBe(400)
      expect(body).toMatchObject({ error: 'bad_request', parameter })
    }
  })

  it('serves one circuit’s geometry; 400 for a malformed id, 404 for an unknown one', async () => {
    const top = (await ranking()).rows[0] as Row
    const { status, body } = await get(`/api/mitigation/circuits/${top.id}`)
    expect(status).toBe(200)
    expect(body).toMatchObject({ id: top.id, key: top.key, bbox: top.bbox })
    expect((body.geometry as { type: string }).type).toMatch(/LineString/)
    expect((await get('/api/mitigation/circuits/abc')).status).toBe(400)
    expect((await get('/api/mitigation/circuits/99999999')).status).toBe(404)
  })

  it('recomputes when the dataset is replaced (new version); missing values count as 0 and are flagged', async () => {
    const before = await ranking()
    const line = (x: number) => ({
      type: 'LineString' as const,
      coordinates: [
        [-106 + x, 35],
        [-105.9 + x, 35.1],
      ],
    })
    const props = (identifier: string, risk: number | null, customers: number | null) => ({
      identifier,
      [settings.risk.field]: risk,
      ...Object.fromEntries(settings.consequence.map((c) => [c.field, 1])),
      customers_impacted: customers,
    })
    await t.store.replaceDataset(settings.dataset, [
      { geometry: line(0), properties: props('B', 1, 100) },
      { geometry: line(0.2), properties: props('A', 1, 100) },
      { geometry: line(0.4), properties: props('C', null, null) },
    ])
    const after = await ranking()
    expect(after.version).not.toBe(before.version)
    expect(order(after)).toEqual(['A', 'B', 'C'])
    const c = after.rows[2] as Row
    expect(c.score).toBe(0)
    expect(c.missing).toEqual(['risk', 'customers'])
    expect(c.factors.customers?.value).toBeNull()
  })
})

describe('when operations.yaml has no mitigation section', () => {
  it('answers 404 JSON', async () => {
    const app = Fastify()
    app.decorate('store', t.store)
    app.decorate('sessionAuth', {
      verifier: testVerifier,
      setVerifier: () => {},
      machines: null,
      setMachineVerifier: () => {},
    })
    app.decorateRequest('session', null)
    await app.register(mitigationRoutes, { settings: null })
    const res = await app.inject({ url: '/api/mitigation', headers: AUTH })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: 'not_found', message: 'Mitigation Analysis is not configured' })
    await app.close()
  })
})
