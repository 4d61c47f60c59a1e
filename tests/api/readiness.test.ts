import { afterEach, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { tempDir, testApp, testVerifier, type TestApp } from './testApp'

// GET /api/ready, the load balancers' readiness probe: public, 200 only while the server takes
// requests; 503 while it starts, drains (SIGTERM) or cannot reach its database.

let started: TestApp | null = null
afterEach(async () => {
  await started?.close()
  started = null
})

async function app(probe?: () => Promise<unknown>): Promise<TestApp> {
  const dataDir = tempDir()
  const store = await openDataDirStore(dataDir, defaultCatalog())
  const built = await buildApp({ dataDir, demo: false, store, verifier: testVerifier, cluster: { probe } })
  started = testApp(built, store, dataDir)
  return started
}

describe('GET /api/ready', () => {
  it('answers 200 without a session once the server is ready, and /api/health stays', async () => {
    const { app: a } = await app()
    const res = await a.inject({ url: '/api/ready' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ ready: true, state: 'ready', database: 'ok' })
    expect(res.headers['cache-control']).toBe('no-store')
    expect((await a.inject({ url: '/api/health' })).statusCode).toBe(200)
  })

  it('answers 503 while draining, at once', async () => {
    const { app: a } = await app()
    expect((await a.inject({ url: '/api/ready' })).statusCode).toBe(200)
    a.readiness.drain()
    const res = await a.inject({ url: '/api/ready' })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toEqual({ ready: false, state: 'draining', database: 'ok' })
    // Liveness is not readiness: the draining server still answers health.
    expect((await a.inject({ url: '/api/health' })).statusCode).toBe(200)
  })

  it('answers 503 while the database cannot be reached', async () => {
    let up = false
    const { app: a } = await app(async () => {
      if (!up) throw new Error('connect ECONNREFUSED')
    })
    const down = await a.inject({ url: '/api/ready' })
    expect(down.statusCode).toBe(503)
    expect(down.json()).toEqual({ ready: false, state: 'ready', database: 'unreachable' })
    up = true
    expect((await a.inject({ url: '/api/ready' })).statusCode).toBe(200)
  })

  it('is starting (not ready) until the app is ready', async () => {
    const { app: a } = await app()
    expect(a.readiness.state).toBe('starting')
    expect((await a.readiness.report()).ready).toBe(false)
    await a.ready()
    expect(a.readiness.state).toBe('ready')
  })

  it('drops query parameters it does not take', async () => {
    const { app: a } = await app()
    expect((await a.inject({ url: '/api/ready?x=1' })).statusCode).toBe(200)
  })
})
