import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationsConfig } from '../../src/shared/config'
import { pspsRoutes } from '../../src/server/operations/pspsRoutes'
import { AUTH, seededApp, type TestApp } from './testApp'

interface Row {
  id: number
  key: string
  bbox: number[] | null
  gust: number | null
  threshold: number | null
  gustExceedsThreshold: boolean
  values: Record<string, string | number | null>
}
interface Event {
  window: { start: string | null; end: string | null }
  columns: { field: string; label: string; formatter: string | null; total: string | null }[]
  rows: Row[]
  totals: Record<string, number>
  count: number
}

const settings = operationsConfig.psps!
let t: TestApp

beforeAll(async () => {
  t = await seededApp({ buildings: 200 })
}, 120_000)

afterAll(async () => {
  await t?.close()
})

async function event(query = ''): Promise<Event> {
  const res = await t.app.inject({ url: `/api/psps/event${query}`, headers: AUTH })
  expect(res.statusCode).toBe(200)
  return res.json<Event>()
}

describe('GET /api/psps/event', () => {
  it('needs a valid session', async () => {
    expect((await t.app.inject({ url: '/api/psps/event' })).statusCode).toBe(401)
    const forged = await t.app.inject({ url: '/api/psps/event', headers: { authorization: 'Bearer nope' } })
    expect(forged.statusCode).toBe(401)
    expect(forged.json()).toMatchObject({ error: 'unauthorized' })
    expect((await t.app.inject({ url: '/api/psps/event/1/geometry' })).statusCode).toBe(401)
  })

  it('answers one row per circuit of the dataset with the configured columns', async () => {
    const body = await event()
    const features = await t.store.allFeatures(settings.dataset)
    expect(body.count).toBe(features.length)
    expect(body.rows.map((r) => r.id)).toEqual(features.map((f) => f.id))
    expect(body.columns.map((c) => c.field)).toEqual(settings.columns.map((c) => c.field))
    expect(body.columns.map((c) => c.label)).toEqual(settings.columns.map((c) => c.label))
    const first = body.rows[0]!
    const props = features[0]!.properties
    for (const c of settings.columns) expect(first.values[c.field]).toEqual(props[c.field])
    expect(first.key).toBe(props[settings.key])
    expect(first.bbox).toHaveLength(4)
    for (const r of body.rows) {
      expect(r.gustExceedsThreshold).toBe((r.gust ?? 0) > (r.threshold ?? Infinity))
    }
  })

  it('the window spans the earliest start and the latest end over the circuits', async () => {
    const body = await event()
    const features = await t.store.allFeatures(settings.dataset)
    const starts = features.map((f) => Date.parse(String(f.properties[settings.windowStart])))
    const ends = features.map((f) => Date.parse(String(f.properties[settings.windowEnd])))
    expect(Date.parse(body.window.start!)).toBe(Math.min(...starts))
    expect(Date.parse(body.window.end!)).toBe(Math.max(...ends))
  })

  it('totals are the sums of the rows for every `total: sum` column', async () => {
    const body = await event()
    const summed = settings.columns.filter((c) => c.total === 'sum')
    expect(summed.length).toBeGreaterThan(0)
    expect(Object.keys(body.totals).sort()).toEqual(summed.map((c) => c.field).sort())
    for (const c of summed) {
      const sum = body.rows.reduce((s, r) => s + Number(r.values[c.field] ?? 0), 0)
      expect(body.totals[c.field]).toBeCloseTo(sum, 6)
      expect(body.totals[c.field]).toBeGreaterThan(0)
    }
  })

  it('sorts by a column, ascending or descending (`-field`)', async () => {
    const field = 'customers_impacted'
    const up = (await event(`?sort=${field}`)).rows.map((r) => Number(r.values[field]))
    const down = (await event(`?sort=-${field}`)).rows.map((r) => Number(r.values[field]))
    expect(up).toEqual([...up].sort((a, b) => a - b))
    expect(down).toEqual([...up].sort((a, b) => b - a))
    const keys = (await event('?sort=identifier')).rows.map((r) => r.key)
    expect(keys).toEqual([...keys].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })))
  })

  it('rejects an unknown sort column, format or parameter with 400 naming it', async () => {
    for (const [query, parameter] of [
      ['?sort=nope', 'sort'],
      ['?sort=-', 'sort'],
      ['?format=xml', 'format'],
      ['?colour=red', 'colour'],
    ] as const) {
      const res = await t.app.inject({ url: `/api/psps/event${query}`, headers: AUTH })
      expect(res.statusCode, query).toBe(400)
      expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
    }
  })

  it('exports CSV: label header, the rows in the asked order, a Total line', async () => {
    const body = await event('?sort=-customers_impacted')
    const res = await t.app.inject({
      url: '/api/psps/event?sort=-customers_impacted&format=csv',
      headers: AUTH,
    })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/csv/)
    const lines = res.body.trimEnd().split('\r\n')
    expect(lines[0]).toBe(settings.columns.map((c) => c.label).join(','))
    expect(lines).toHaveLength(body.rows.length + 2)
    body.rows.forEach((r, i) => {
      expect(lines[i + 1]).toBe(settings.columns.map((c) => String(r.values[c.field] ?? '')).join(','))
    })
    const total = lines.at(-1)!.split(',')
    settings.columns.forEach((c, i) => {
      if (c.total === 'sum') expect(Number(total[i])).toBeCloseTo(body.totals[c.field]!, 6)
      else expect(total[i]).toBe(i === 0 ? 'Total' : '')
    })
  })

  it('serves a circuit geometry for highlighting, 404 for unknown ids, 400 for bad ids', async () => {
    const row = (await event()).rows[0]!
    const res = await t.app.inject({ url: `/api/psps/event/${row.id}/geometry`, headers: AUTH })
    expect(res.statusCode).toBe(200)
    const feature = res.json<{
      type: string
      id: number
      geometry: { type: string; coordinates: number[][] }
    }>()
    expect(feature).toMatchObject({ type: 'Feature', id: row.id, properties: { key: row.key } })
    expect(feature.geometry.type).toMatch(/LineString/)
    expect((await t.app.inject({ url: '/api/psps/event/999999/geometry', headers: AUTH })).statusCode).toBe(
      404,
    )
    const bad = await t.app.inject({ url: '/api/psps/event/abc/geometry', headers: AUTH })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ error: 'bad_request', parameter: 'id' })
  })

  it('follows a replaced dataset (recomputed on the new version)', async () => {
    const before = await event()
    const features = await t.store.allFeatures(settings.dataset)
    const kept = features.slice(0, 2).map((f) => ({
      geometry: {
        type: 'LineString' as const,
        coordinates: [
          [-106, 35],
          [-105.9, 35.1],
        ],
      },
      properties: { ...f.properties, customers_impacted: 7 },
    }))
    await t.store.replaceDataset(settings.dataset, kept)
    const after = await event()
    expect(after.count).toBe(2)
    expect(after.count).not.toBe(before.count)
    expect(after.totals.customers_impacted).toBe(14)
  })
})

describe('PSPS not configured', () => {
  it('answers 404 JSON', async () => {
    const Fastify = (await import('fastify')).default
    const app = Fastify()
    app.decorate('store', t.store)
    await app.register(pspsRoutes, { settings: null })
    const res = await app.inject({ url: '/api/psps/event', headers: AUTH })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ error: 'not_found', message: 'PSPS event roll-up is not configured' })
    await app.close()
  })
})
