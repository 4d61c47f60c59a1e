import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AUTH, seededApp, type TestApp } from './testApp'

let t: TestApp

beforeAll(async () => {
  t = await seededApp({ buildings: 300 })
}, 120_000)

afterAll(async () => {
  await t.close()
})

interface Sources {
  window: { start: string; hours: number; currentHour: number }
  datasets: {
    id: string
    version: number
    count: number
    updatedAt: string | null
    newest: { field: string; value: string } | null
  }[]
  grids: { id: string; version: string; hours: number; source: string }[]
}

describe('GET /api/briefing/sources', () => {
  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/briefing/sources' })).statusCode).toBe(401)
  })

  it("lists every dataset's version, count, last write and newest data time, and the grids", async () => {
    const res = await t.app.inject({ url: '/api/briefing/sources', headers: AUTH })
    expect(res.statusCode).toBe(200)
    const body = res.json<Sources>()
    const hotspots = body.datasets.find((d) => d.id === 'thermal_hot_spots')
    expect(hotspots?.count).toBe((await t.store.info('thermal_hot_spots')).count)
    expect(hotspots?.version).toBe((await t.store.info('thermal_hot_spots')).version)
    expect(hotspots?.newest?.field).toBe('acquired')
    expect(Date.parse(hotspots?.newest?.value ?? '')).toBeGreaterThan(0)
    expect(Date.parse(hotspots?.updatedAt ?? '')).toBeGreaterThan(0)
    expect(body.datasets.find((d) => d.id === 'buildings')?.newest).toBeNull() // no date field
    expect(body.window.hours).toBeGreaterThan(0)
    expect(body.window.currentHour).toBeLessThan(body.window.hours)
  })

  it('shows a re-import at once (a new version)', async () => {
    const before = (await t.store.info('red_flag_warnings')).version
    const features = await t.store.allFeatures('red_flag_warnings')
    expect(features.length).toBeGreaterThan(0)
    await t.store.replaceDataset('red_flag_warnings', [])
    const res = await t.app.inject({ url: '/api/briefing/sources', headers: AUTH })
    const red = res.json<Sources>().datasets.find((d) => d.id === 'red_flag_warnings')
    expect(red?.version).toBe(before + 1)
    expect(red?.count).toBe(0)
    expect(red?.newest).toBeNull()
  })
})
