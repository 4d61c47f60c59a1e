import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appConfig, operationsConfig } from '../../src/shared/config'
import type { PlanningRow } from '../../src/shared/operations/wireTypes'
import { AUTH, seededApp, type TestApp } from './testApp'

type Ranked = PlanningRow
interface Planning {
  hour: number
  hours: number
  validTime: string
  validTimes: string[]
  gridAvailable: boolean
  considered: number
  count: number
  circuits: Ranked[]
  overrides: { key: string; threshold: number; storedThreshold: number | null }[]
}

const settings = operationsConfig.planning!
/** Uniform gust per hour over New Mexico: 30 + 2·hour mph. */
const gustAt = (hour: number) => 30 + 2 * hour
let t: TestApp

beforeAll(async () => {
  t = await seededApp({ buildings: 200 })
  const shape = { nx: 16, ny: 14, west: -110, east: -102, south: 31, north: 38 }
  const hours = Array.from({ length: settings.hours }, (_, h) => ({
    ...shape,
    data: new Float32Array(shape.nx * shape.ny).fill(gustAt(h)),
  }))
  await t.store.grids.replaceGrid(settings.gustGrid, hours, 'test')
}, 120_000)

afterAll(async () => {
  await t?.close()
})

async function planning(query: string): Promise<Planning> {
  const res = await t.app.inject({ url: `/api/planning${query}`, headers: AUTH })
  expect(res.statusCode, res.body).toBe(200)
  return res.json<Planning>()
}

async function stored(): Promise<{ key: string; threshold: number; customers: number }[]> {
  return (await t.store.allFeatures(settings.dataset)).map((f) => ({
    key: String(f.properties[settings.key]),
    threshold: Number(f.properties[settings.threshold]),
    customers: Number(f.properties[settings.customers]),
  }))
}

describe('GET /api/planning', () => {
  it('needs a valid session', async () => {
    expect((await t.app.inject({ url: '/api/planning?hour=0' })).statusCode).toBe(401)
    const forged = await t.app.inject({ url: '/api/planning?hour=0', headers: { authorization: 'Bearer x' } })
    expect(forged.statusCode).toBe(401)
  })

  it('lists exactly the circuits whose gust exceeds the stored threshold, ranked', async () => {
    const hour = 6
    const body = await planning(`?hour=${hour}`)
    const circuits = await stored()
    const over = circuits.filter((c) => gustAt(hour) > c.threshold)
    expect(over.length).toBeGreaterThan(0)
    expect(over.length).toBeLessThan(circuits.length)
    expect(body.considered).toBe(circuits.length)
    expect(body.count).toBe(over.length)
    expect(body.circuits.map((c) => c.key).sort()).toEqual(over.map((c) => c.key).sort())
    for (const c of body.circuits) {
      expect(c.gust).toBeCloseTo(gustAt(hour), 3)
      expect(c.exceedance).toBeCloseTo(c.gust - c.threshold, 2)
      expect(c.overridden).toBe(false)
      expect(c.threshold).toBe(c.storedThreshold)
    }
    for (let i = 1; i < body.circuits.length; i++) {
      const a = body.circuits[i - 1]!
      const b = body.circuits[i]!
      expect(
        a.exceedance > b.exceedance ||
          (a.exceedance === b.exceedance && (a.customers ?? 0) >= (b.customers ?? 0)),
      ).toBe(true)
    }
  })

  it('with below=true lists every circuit, those over threshold first, and counts only those over', async () => {
    const hour = 6
    const over = await planning(`?hour=${hour}`)
    const all = await planning(`?hour=${hour}&below=true`)
    expect(all.circuits).toHaveLength((await stored()).length)
    expect(all.count).toBe(over.count)
    const flags = all.circuits.map((c) => c.exceeds)
    expect(flags.slice(0, over.count).every(Boolean)).toBe(true)
    expect(flags.slice(over.count).some(Boolean)).toBe(false)
    expect(all.circuits.slice(0, over.count).map((c) => c.key)).toEqual(over.circuits.map((c) => c.key))
    for (const c of all.circuits) expect(c.exceeds).toBe(c.gust > c.threshold)
  })

  it('gives the hour valid time from the forecast window', async () => {
    const body = await planning('?hour=3')
    expect(body.hours).toBe(settings.hours)
    expect(body.validTimes).toHaveLength(settings.hours)
    expect(body.validTime).toBe(body.validTimes[3])
    expect(Date.parse(body.validTimes[1]!) - Date.parse(body.validTimes[0]!)).toBe(3_600_000)
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone: appConfig.demo.timeZone,
      hour: 'numeric',
      hourCycle: 'h23',
    })
    expect(Number(local.format(new Date(body.validTimes[0]!)))).toBe(appConfig.forecastWindow.startHourLocal)
  })

  it('a later hour with stronger gusts lists more circuits', async () => {
    const early = await planning('?hour=0')
    const late = await planning(`?hour=${settings.hours - 1}`)
    expect(early.count).toBe((await stored()).filter((c) => gustAt(0) > c.threshold).length)
    expect(late.count).toBeGreaterThan(early.count)
  })

  it('rejects hours outside 0..hours-1 and bad what-if thresholds with 400 naming the parameter', async () => {
    const key = (await stored())[0]!.key
    for (const [query, parameter] of [
      ['?hour=-1', 'hour'],
      [`?hour=${settings.hours}`, 'hour'],
      ['?hour=1.5', 'hour'],
      ['?hour=abc', 'hour'],
      ['?hour=0x1', 'hour'],
      ['?hour=%2B1', 'hour'],
      [`?hour=1&threshold.${encodeURIComponent(key)}=0x10`, `threshold.${key}`],
      [`?hour=1&threshold.${encodeURIComponent(key)}=%2040`, `threshold.${key}`],
      [`?hour=1&threshold.${encodeURIComponent(key)}=Infinity`, `threshold.${key}`],
      ['?hour=1&hour=2', 'hour'],
      [`?hour=1&threshold.${encodeURIComponent(key)}=fast`, `threshold.${key}`],
      [`?hour=1&threshold.${encodeURIComponent(key)}=-3`, `threshold.${key}`],
      ['?hour=1&threshold.NO-SUCH-CIRCUIT=40', 'threshold.NO-SUCH-CIRCUIT'],
      ['?hour=1&thresholds=40', 'thresholds'],
      ['?hour=1&below=yes', 'below'],
    ] as const) {
      const res = await t.app.inject({ url: `/api/planning${query}`, headers: AUTH })
      expect(res.statusCode, query).toBe(400)
      expect(res.json(), query).toMatchObject({ error: 'bad_request', parameter })
    }
  })

  it('what-if thresholds re-rank the list and never change the stored records', async () => {
    const hour = 6
    const gust = gustAt(hour)
    const circuits = await stored()
    const lowered = circuits.find((c) => c.threshold >= gust)!
    const raised = circuits.find((c) => c.threshold < gust)!
    const before = await planning(`?hour=${hour}`)
    expect(before.circuits.some((c) => c.key === lowered.key)).toBe(false)
    const q = `?hour=${hour}&threshold.${encodeURIComponent(lowered.key)}=1&threshold.${encodeURIComponent(raised.key)}=200`
    const after = await planning(q)
    expect(after.circuits[0]).toMatchObject({
      key: lowered.key,
      threshold: 1,
      storedThreshold: lowered.threshold,
      overridden: true,
    })
    expect(after.circuits.some((c) => c.key === raised.key)).toBe(false)
    expect(after.count).toBe(before.count)
    expect(after.overrides).toEqual(
      expect.arrayContaining([
        { key: lowered.key, threshold: 1, storedThreshold: lowered.threshold },
        { key: raised.key, threshold: 200, storedThreshold: raised.threshold },
      ]),
    )
    // The stored records are untouched: read them back through the data API.
    const res = await t.app.inject({ url: `/api/data/${settings.dataset}/records?limit=1000`, headers: AUTH })
    expect(res.statusCode).toBe(200)
    const records = res.json<{ records: Record<string, unknown>[] }>().records
    const byKey = new Map(records.map((r) => [r[settings.key], r[settings.threshold]]))
    expect(byKey.get(lowered.key)).toBe(lowered.threshold)
    expect(byKey.get(raised.key)).toBe(raised.threshold)
    expect(await stored()).toEqual(circuits)
    const again = await planning(`?hour=${hour}`)
    expect(again.circuits).toEqual(before.circuits)
  })

  it('samples the new values when the grid is replaced', async () => {
    const grids = t.store.grids
    const current = await Promise.all(
      Array.from({ length: settings.hours }, async (_, h) => (await grids.grid(settings.gustGrid, h))!),
    )
    const stronger = current.map((g) => ({ ...g, data: new Float32Array(g.data.length).fill(99) }))
    await grids.replaceGrid(settings.gustGrid, stronger, 'test')
    try {
      const body = await planning('?hour=0')
      expect(body.count).toBe((await stored()).length)
      expect(body.circuits[0]!.gust).toBe(99)
    } finally {
      await grids.replaceGrid(settings.gustGrid, current, 'test')
    }
  })

  it('serves a circuit geometry for highlighting (400 bad id, 404 unknown, 401 without a session)', async () => {
    const feature = (await t.store.allFeatures(settings.dataset))[0]!
    const url = `/api/planning/circuits/${feature.id}/geometry`
    const res = await t.app.inject({ url, headers: AUTH })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      type: 'Feature',
      id: feature.id,
      properties: { key: feature.properties[settings.key] },
      geometry: { type: expect.stringMatching(/LineString/) },
    })
    expect((await t.app.inject({ url })).statusCode).toBe(401)
    const bad = await t.app.inject({ url: '/api/planning/circuits/x1/geometry', headers: AUTH })
    expect(bad.json()).toMatchObject({ error: 'bad_request', parameter: 'id' })
    const missing = await t.app.inject({ url: '/api/planning/circuits/987654/geometry', headers: AUTH })
    expect(missing.statusCode).toBe(404)
  })
})
