import pg from 'pg'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { defaultCatalog } from '../catalog'
import { ADVISORY_LOCK_SPACE } from './pgDatabase'
import { openPgStore } from './pgStore'
import { testPg, type TestPg } from './testing/pgTestDatabase'

// A staging table left committed in the shared database (an interrupted load) is dropped when a
// server or CLI opens the store — unless an import elsewhere is running on that dataset (it holds
// the dataset's advisory lock), whose table must survive another server's start.
let t: TestPg
beforeEach(async () => {
  t = await testPg()
  await (await openPgStore(t.url, defaultCatalog(), { max: 2 })).close()
})
afterEach(async () => {
  await t.drop()
})

const stagingExists = async (): Promise<boolean> =>
  (await t.db.one<{ t: string | null }>("SELECT to_regclass('ds_buildings__staging')::text AS t"))?.t != null

describe('stale staging tables (PostgreSQL)', () => {
  it('drops a leftover staging table at open, but not while an import elsewhere holds the dataset', async () => {
    await t.db.run('CREATE TABLE ds_buildings__staging (id bigint, geom bytea)')
    await t.db.run('INSERT INTO ds_buildings__staging SELECT g, NULL FROM generate_series(1, 1000) g')
    // Another server's import of buildings: its transaction holds the dataset's lock.
    const other = new pg.Client({ connectionString: t.url })
    await other.connect()
    await other.query('BEGIN')
    await other.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
      ADVISORY_LOCK_SPACE,
      'dataset:buildings',
    ])
    await (await openPgStore(t.url, defaultCatalog(), { max: 2 })).close()
    expect(await stagingExists()).toBe(true)
    await other.query('ROLLBACK')
    await other.end()
    const store = await openPgStore(t.url, defaultCatalog(), { max: 2 })
    expect(await stagingExists()).toBe(false)
    expect(await store.info('buildings')).toMatchObject({ count: 0 })
    await store.close()
  })

  it('drops a leftover staging table of any dataset at the start of an import', async () => {
    const store = await openPgStore(t.url, defaultCatalog(), { max: 2 })
    try {
      await t.db.run('CREATE TABLE ds_critical_infrastructure__staging (id bigint, geom bytea)')
      const ring = [
        [-106.6, 35.1],
        [-106.59, 35.1],
        [-106.59, 35.11],
        [-106.6, 35.1],
      ]
      await store.replaceDataset('buildings', [
        { geometry: { type: 'Polygon', coordinates: [ring] }, properties: { area_ft2: 1 } },
      ])
      const left = await t.db.one<{ t: string | null }>(
        "SELECT to_regclass('ds_critical_infrastructure__staging')::text AS t",
      )
      expect(left?.t).toBeNull()
      expect(await store.info('buildings')).toMatchObject({ count: 1 })
    } finally {
      await store.close()
    }
  })
})
