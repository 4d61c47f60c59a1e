import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testPg, type TestPg } from '../store/pg/testing/pgTestDatabase'
import { databaseProbe } from './databaseProbe'
import { Readiness } from './readiness'

let t: TestPg
beforeAll(async () => {
  t = await testPg({ migrate: false })
})
afterAll(() => t.drop())

describe('databaseProbe', () => {
  it('answers while the database does, and again after its connection was dropped', async () => {
    const { probe, close } = databaseProbe(t.url)
    const readiness = new Readiness(probe)
    readiness.markReady()
    expect(await readiness.report()).toEqual({ ready: true, state: 'ready', database: 'ok' })
    await t.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'emberline-ready'`,
    )
    // The dropped connection fails at most the probe that meets it; the next reconnects.
    await readiness.report()
    expect(await readiness.report()).toEqual({ ready: true, state: 'ready', database: 'ok' })
    await close()
  })

  it('reports an unreachable database as not ready', async () => {
    const { probe, close } = databaseProbe('postgres://postgres@127.0.0.1:1/none')
    const readiness = new Readiness(probe)
    readiness.markReady()
    expect(await readiness.report()).toEqual({ ready: false, state: 'ready', database: 'unreachable' })
    await close()
  })
})
