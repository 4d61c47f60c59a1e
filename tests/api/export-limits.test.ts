import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { seedDemo } from '../../src/demo/seedDemo'
import { defaultCatalog } from '../../src/server/store/catalog'
import {
  dataDirDatabaseUrl,
  openDataDirStore,
  testStoreKind,
} from '../../src/server/store/testing/dataDirStore'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { AUTH, filtersQuery, TEST_TOKEN, tempDir, testApp, testVerifier, type TestApp } from './testApp'

// Exports are unbounded work on request: they must not hold up the server's other answers
// (/api/health, sign-in), one member may run only exports.perMember at once (429 + Retry-After),
// none may hold more than exports.maxFeatures (413 before any work), and a GeoPackage's temporary
// file goes whether the download finishes or the client goes away.
const BUILDINGS = 30_000
const limits = { maxFeatures: 40_000, perMember: 2, total: 8 }
// Two members: the test token's and another's.
const OTHER = { authorization: 'Bearer other-member-token' }
const twoMembers: SessionVerifier = {
  async verify(credential) {
    const session = await testVerifier.verify(credential === 'other-member-token' ? TEST_TOKEN : credential)
    return session && credential !== TEST_TOKEN ? { ...session, memberId: 'member-other' } : session
  },
}
let t: TestApp
let base = ''
let exportsDir = ''

beforeAll(async () => {
  const dataDir = tempDir('emberline-export-limits-')
  exportsDir = path.join(dataDir, 'export-tmp')
  fs.mkdirSync(exportsDir)
  const store = await openDataDirStore(dataDir, defaultCatalog())
  await seedDemo(store, { buildings: BUILDINGS, steps: [] })
  const app = await buildApp({
    dataDir,
    demo: true,
    store,
    verifier: twoMembers,
    exports: { limits, tempDir: exportsDir },
  })
  t = testApp(app, store, dataDir)
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
}, 180_000)

afterAll(async () => {
  // Downloads this file abandoned on purpose may still hold a socket: close them with the app.
  t?.app.server.closeAllConnections()
  await t?.close()
}, 60_000)

const exportUrl = (format: string, query = '') =>
  `${base}/api/export/buildings?format=${format}${query ? `&${query}` : ''}`
const leftoverFiles = () => fs.readdirSync(exportsDir)

/** A GeoJSON download of every building whose client reads nothing (TCP backpressure holds it open). */
function heldDownload(): Promise<http.ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = http.get(exportUrl('geojson'), { headers: AUTH }, (res) => {
      expect(res.statusCode).toBe(200)
      res.pause()
      resolve(req)
    })
    req.on('error', () => undefined)
    req.once('error', reject)
  })
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('exports do not hold up the server', () => {
  it('answers /api/health promptly, and before they finish, while two members export every building twice each', async () => {
    const finished: number[] = []
    const started = performance.now()
    const runs = [
      ['geojson', AUTH],
      ['gpkg', AUTH],
      ['geojson', OTHER],
      ['gpkg', OTHER],
    ] as const
    const exports = runs.map(async ([format, headers]) => {
      const res = await fetch(exportUrl(format), { headers })
      expect(res.status).toBe(200)
      const bytes = (await res.arrayBuffer()).byteLength
      finished.push(performance.now() - started)
      return bytes
    })
    const latencies: number[] = []
    let firstHealth = Infinity
    // Poll /api/health while the exports run; each answer should come at once.
    await Promise.race([
      Promise.all(exports),
      (async () => {
        for (;;) {
          const t0 = performance.now()
          const res = await fetch(`${base}/api/health`)
          expect(res.status).toBe(200)
          latencies.push(performance.now() - t0)
          firstHealth = Math.min(firstHealth, performance.now() - started)
          await new Promise((resolve) => setTimeout(resolve, 20))
          if (finished.length === 4) return
        }
      })(),
    ])
    const sizes = await Promise.all(exports)
    const worst = Math.max(...latencies)
    console.log(
      `exports of ${BUILDINGS} buildings: finished at ${finished.map((f) => Math.round(f)).join(', ')} ms; ` +
        `/api/health ${latencies.length} answers, worst ${Math.round(worst)} ms, first at ${Math.round(firstHealth)} ms; ` +
        `sizes ${sizes.join(', ')}`,
    )
    // Timings on a shared machine vary: the robust facts are the order (health answers before any
    // export is done) and the slowest health answer against the fastest export, not absolute times.
    // (Exports on the server's own thread: first answer after the first export, worst ≈ its duration.)
    expect(firstHealth).toBeLessThan(Math.min(...finished))
    expect(latencies.length).toBeGreaterThan(3)
    expect(worst).toBeLessThan(Math.min(...finished) / 4)
  }, 120_000)
})

describe('GeoPackage exports do not hold up the server', () => {
  it('keeps the server thread free while four GeoPackages of every building are written at once', async () => {
    // The server runs in this process: the event loop's delays are the server's own stalls
    // (a GeoPackage written on the server's thread stalls it for each batch and the final copy).
    const delay = monitorEventLoopDelay({ resolution: 10 })
    const elu0 = performance.eventLoopUtilization()
    const started = performance.now()
    const finished: number[] = []
    const latencies: number[] = []
    delay.enable()
    const exports = [AUTH, AUTH, OTHER, OTHER].map(async (headers) => {
      const res = await fetch(exportUrl('gpkg'), { headers })
      expect(res.status).toBe(200)
      const bytes = Buffer.from(await res.arrayBuffer())
      finished.push(performance.now() - started)
      return bytes
    })
    while (finished.length < 4) {
      const t0 = performance.now()
      const res = await fetch(`${base}/api/health`)
      expect(res.status).toBe(200)
      latencies.push(performance.now() - t0)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    delay.disable()
    const busy = performance.eventLoopUtilization(elu0).utilization
    const files = await Promise.all(exports)
    const stall = delay.max / 1e6
    console.log(
      `4 GeoPackage exports of ${BUILDINGS} buildings: finished at ${finished.map((f) => Math.round(f)).join(', ')} ms; ` +
        `/api/health ${latencies.length} answers, worst ${Math.round(Math.max(...latencies))} ms; ` +
        `server thread busy ${Math.round(busy * 100)} %, longest stall ${Math.round(stall)} ms (p99 ${Math.round(delay.percentile(99) / 1e6)} ms)`,
    )
    for (const f of files) expect(f.subarray(0, 15).toString()).toBe('SQLite format 3')
    expect(latencies.length).toBeGreaterThan(3)
    expect(Math.max(...latencies)).toBeLessThan(Math.min(...finished) / 4)
    // The share of the time this thread (the server's, and this test's client) was busy: 100 %
    // with the GeoPackages written on it (PostgreSQL before the worker: every batch and the final
    // copy), about 40 % with the work in worker threads (measured on a loaded 2-core machine).
    expect(busy).toBeLessThan(0.75)
    await until(() => leftoverFiles().length === 0)
  }, 120_000)
})

describe('export limits', () => {
  it('refuses a third export of one member with 429 and Retry-After, and takes one again when one ends', async () => {
    // Two GeoJSON downloads that the client does not read: they stay open (the worker waits).
    const held = [await heldDownload(), await heldDownload()]
    const third = await fetch(exportUrl('geojson'), { headers: AUTH })
    expect(third.status).toBe(429)
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await third.json()).toMatchObject({
      error: 'too_many_requests',
      message: expect.stringContaining('exports.perMember'),
    })
    try {
      // Another member is not held up by this one's exports.
      const others = await fetch(`${base}/api/export/critical_infrastructure?format=geojson`, {
        headers: OTHER,
      })
      expect(others.status).toBe(200)
      await others.arrayBuffer()
      held[0]?.destroy()
      let again = 0
      // The abandoned download's slot is free once the server has seen the client go.
      for (let i = 0; i < 40 && again !== 200; i++) {
        const res = await fetch(`${base}/api/export/critical_infrastructure?format=geojson`, {
          headers: AUTH,
        })
        again = res.status
        await res.arrayBuffer()
        if (again !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
      }
      expect(again).toBe(200)
    } finally {
      for (const h of held) h.destroy()
    }
  }, 60_000)

  it('refuses an export past exports.maxFeatures with 413 naming the limit, before any work', async () => {
    const small = await buildApp({
      dataDir: t.dataDir,
      demo: true,
      store: t.store,
      verifier: testVerifier,
      exports: { limits: { ...limits, maxFeatures: 1000 }, tempDir: exportsDir },
    })
    try {
      const res = await small.inject({ url: '/api/export/buildings?format=gpkg', headers: AUTH })
      expect(res.statusCode).toBe(413)
      expect(res.json()).toMatchObject({
        error: 'payload_too_large',
        limit: 'exports.maxFeatures',
        maxFeatures: 1000,
        features: BUILDINGS,
      })
      expect(leftoverFiles()).toEqual([])
      // A smaller export (the table's filters narrow it below the limit) is served.
      const narrow = filtersQuery({ field: 'type', value: 'station' })
      const count = (
        await small.inject({
          url: `/api/data/critical_infrastructure/records?limit=1&${narrow}`,
          headers: AUTH,
        })
      ).json() as { total: number }
      expect(count.total).toBeGreaterThan(0)
      expect(count.total).toBeLessThan(1000)
      const ok = await small.inject({
        url: `/api/export/critical_infrastructure?format=geojson&${narrow}`,
        headers: AUTH,
      })
      expect(ok.statusCode).toBe(200)
      expect((ok.json() as { features: unknown[] }).features).toHaveLength(count.total)
    } finally {
      await small.close()
    }
  })

  it('streams the whole GeoJSON in id order, and removes a GeoPackage temp file after the download', async () => {
    const res = await fetch(exportUrl('geojson'), { headers: AUTH })
    const fc = (await res.json()) as { type: string; features: { id: number }[] }
    expect(fc.type).toBe('FeatureCollection')
    expect(fc.features).toHaveLength(BUILDINGS)
    const ids = fc.features.map((f) => f.id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    const gpkg = await fetch(exportUrl('gpkg'), { headers: AUTH })
    expect(
      Buffer.from(await gpkg.arrayBuffer())
        .subarray(0, 15)
        .toString(),
    ).toBe('SQLite format 3')
    await until(() => leftoverFiles().length === 0)
  }, 60_000)

  it('stops the work and removes the temp file when the client goes away mid-export', async () => {
    const c = new AbortController()
    const pending = fetch(exportUrl('gpkg'), { headers: AUTH, signal: c.signal }).catch(() => null)
    await until(() => leftoverFiles().length > 0)
    c.abort()
    await pending
    await until(() => leftoverFiles().length === 0)
    if (testStoreKind() === 'postgres') {
      // The stopped worker's own database connection is gone too (none is left open by an export).
      const db = new pg.Client({ connectionString: await dataDirDatabaseUrl(t.dataDir) })
      await db.connect()
      try {
        const exportConnections = async () =>
          Number(
            (
              await db.query<{ n: string }>(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'emberline-export' AND datname = current_database()",
              )
            ).rows[0]?.n,
          )
        let left = await exportConnections()
        for (let i = 0; i < 100 && left > 0; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          left = await exportConnections()
        }
        expect(left).toBe(0)
      } finally {
        await db.end()
      }
    }
  }, 60_000)
})
