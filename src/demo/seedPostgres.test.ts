import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultCatalog } from '../server/store/catalog'
import { openPgStore, type PgStore } from '../server/store/pg/pgStore'
import { testPg, type TestPg } from '../server/store/pg/testing/pgTestDatabase'
import { isSeeded, seedDemo } from './seedDemo'

// First start in PostgreSQL mode seeds through the same async seed as SQLite: the datasets,
// series, the grids step and the meta key in one transaction of the shared database.
let t: TestPg
let store: PgStore

beforeAll(async () => {
  t = await testPg({ migrate: false })
  store = await openPgStore(t.url, defaultCatalog())
}, 60_000)
afterAll(async () => {
  await store.close()
  await t.drop()
})

describe('demo seed on PostgreSQL', () => {
  it('fills an empty database, grids included, in one transaction', async () => {
    expect(await store.isEmpty()).toBe(true)
    expect(await isSeeded(store)).toBe(false)
    await seedDemo(store, { buildings: 200 })
    expect(await isSeeded(store)).toBe(true)
    expect(await store.isEmpty()).toBe(false)
    expect((await store.info('buildings')).count).toBe(200)
    expect((await store.grids.list()).map((g) => g.id)).toContain('slope')
    expect((await store.series('public_safety_power_shutoff_risk_score')).length).toBeGreaterThan(0)
  }, 120_000)

  it('leaves the previous data as it was when a step fails half-way', async () => {
    const before = await store.info('buildings')
    const grids = await store.grids.list()
    const failing = {
      name: 'failing step',
      run: async () => {
        throw new Error('interrupted')
      },
    }
    await expect(seedDemo(store, { buildings: 300, seed: 9, steps: [failing] })).rejects.toThrow(
      'interrupted',
    )
    expect(await store.info('buildings')).toEqual(before)
    expect(await store.grids.list()).toEqual(grids)
    expect((await store.records('buildings', [], 1, 0)).total).toBe(200)
  }, 120_000)
})
