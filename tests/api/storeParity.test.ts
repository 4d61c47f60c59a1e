import fs from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedDemo } from '../../src/demo/seedDemo'
import { buildApp } from '../../src/server/app'
import type { AppStore } from '../../src/server/store/AppStore'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openPgStore } from '../../src/server/store/pg/pgStore'
import { testPg, type TestPg } from '../../src/server/store/pg/testing/pgTestDatabase'
import { openStore } from '../../src/server/store/sqliteStore'
import { testStoreKind } from '../../src/server/store/testing/dataDirStore'
import { AUTH, filtersQuery, tempDir, testVerifier } from './testApp'

// The same demo seeded into SQLite and PostgreSQL: the app answers every request alike — the
// same records, briefing, PSPS event, OGC items and feeds (clock fields aside) and byte-identical
// vector tiles at every zoom band. Runs once (both stores in it), not again in the suite's
// PostgreSQL half.

const apps: FastifyInstance[] = []
const stores: AppStore[] = []
const dirs: string[] = []
let pg: TestPg | undefined

/** Fields that tell the time of the answer, not the data. */
const CLOCK = /^(updatedAt|generatedAt|now|timeStamp)$/

function tileOf(lon: number, lat: number, z: number): string {
  const n = 2 ** z
  const s = Math.sin((lat * Math.PI) / 180)
  const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)
  return `${z}/${Math.floor(((lon + 180) / 360) * n)}/${y}`
}

describe.skipIf(testStoreKind() === 'postgres')('SQLite and PostgreSQL stores through the app', () => {
  beforeAll(async () => {
    pg = await testPg()
    const sqliteDir = tempDir()
    const pgDir = tempDir()
    dirs.push(sqliteDir, pgDir)
    stores.push(openStore(sqliteDir, defaultCatalog()), await openPgStore(pg.url, defaultCatalog()))
    for (const s of stores) await seedDemo(s, { buildings: 2000, steps: [] })
    for (const [i, store] of stores.entries())
      apps.push(await buildApp({ dataDir: dirs[i] as string, demo: true, store, verifier: testVerifier }))
  }, 300_000)
  afterAll(async () => {
    for (const a of apps) await a.close()
    for (const s of stores) await s.close()
    await pg?.drop()
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  })

  it('answers records, briefing, PSPS, OGC, feeds and tiles alike', async () => {
    const urls = [
      '/api/data/buildings/records?limit=20&offset=100',
      '/api/data/public_safety_power_shutoff/records',
      `/api/data/public_safety_power_shutoff/records?${filtersQuery({ field: 'customers_impacted', value: 500, type: 'gt' })}`,
      '/api/data/critical_infrastructure/records?limit=50&sort=name',
      '/api/data/critical_infrastructure/records?limit=50&sort=-type',
      '/api/data/weather_stations_raws/records?limit=1000',
      '/api/briefing/sources',
      '/api/psps/event',
      '/ogc/collections/buildings/items?limit=5',
      '/ogc/collections/critical_infrastructure/items?limit=20&bbox=-107,35,-106,36',
      '/api/feeds',
    ]
    const sources = ['buildings', 'critical_infrastructure', 'transmission_lines', 'distribution_lines']
    for (const id of [...sources, 'fire_extent_historic'])
      for (const z of [5, 8, 10, 12, 14]) urls.push(`/api/tiles/${id}/mvt/${tileOf(-106.51, 36.17, z)}`)
    let tileBytes = 0
    for (const url of urls) {
      const [a, b] = await Promise.all(
        apps.map((app) => app.inject({ url, headers: { ...AUTH, 'accept-encoding': 'identity' } })),
      )
      if (!a || !b) throw new Error('two apps')
      expect({ url, status: b.statusCode }).toEqual({ url, status: a.statusCode })
      if (url.includes('/mvt/')) {
        expect(Buffer.compare(b.rawPayload, a.rawPayload), url).toBe(0)
        tileBytes += a.rawPayload.length
        continue
      }
      const json = (payload: string): unknown =>
        JSON.parse(payload, (k, v: unknown) => (CLOCK.test(k) ? null : v))
      expect(json(b.payload), url).toEqual(json(a.payload))
    }
    expect(tileBytes).toBeGreaterThan(10_000)
  }, 120_000)
})
