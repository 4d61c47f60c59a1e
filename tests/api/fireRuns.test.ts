import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { WIND_U_GRID, WIND_V_GRID } from '../../src/server/grids/windGrid'
import type { GridRaster } from '../../src/server/grids/gridRaster'
import { summariseRun } from '../../src/server/fire/runs/fireRunOutputs'
import { DEFAULT_FIRE_RUN_SETTINGS, type FireRunSettings } from '../../src/server/fire/runs/fireRunSettings'
import { FireRunService } from '../../src/server/fire/runs/FireRunService'
import { windowSettings } from '../../src/server/grids/gridCatalog'
import type { AppStore } from '../../src/server/store/AppStore'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { ClaimedFireBatch } from '../../src/server/store/fireRunStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { LeaderTasks, soleLeader, type Leadership } from '../../src/server/cluster/leadership'
import { tempDir } from './testApp'

// The territory's consequence run (issue #31 item 3, docs/fire.md "Consequence run") through the
// app on the suite's store (SQLite here, PostgreSQL under --project api-pg): a run over a small
// test landscape (uniform GR2 grass, a steady wind, two circuits' lines, a few buildings), its
// job table claimed by two store connections, a dead claimer's batch taken over, the outputs in
// the Fire Consequence dataset with their provenance, and the permission checks.

const ADMIN = 'fire-admin-token'
const MEMBER = 'fire-member-token'
const verifier: SessionVerifier = {
  async verify(credential) {
    if (credential !== ADMIN && credential !== MEMBER) return null
    return {
      memberId: credential === ADMIN ? 'member-admin' : 'member-plain',
      sessionId: 's',
      organizationId: 'o',
      roles: credential === ADMIN ? ['stytch_member', 'stytch_admin'] : ['stytch_member'],
      expiresAt: new Date(Date.now() + 3_600_000),
    }
  },
}
const as = (token: string) => ({ authorization: `Bearer ${token}` })

const BBOX = { west: -106.62, south: 35.0, east: -106.5, north: 35.1 }
const raster = (nx: number, ny: number, value: number): GridRaster => ({
  nx,
  ny,
  ...BBOX,
  data: new Float32Array(nx * ny).fill(value),
})

const SETTINGS: FireRunSettings = {
  ...DEFAULT_FIRE_RUN_SETTINGS,
  landscape: { fuelGrid: 'fire_test_fuel' },
  lines: [{ dataset: 'distribution_lines', circuitField: 'identifier' }],
  spacingM: 500,
  hours: 2,
  everyHours: 2,
  starts: 2,
  batchSize: 3,
  cellSizeM: 90,
  windowHalfSizeM: 3000,
  claimTimeoutMs: 60_000,
  pollMs: 50,
  workers: 1,
}

let app: FastifyInstance
let store: AppStore
let dataDir: string

/** A small landscape: GR2 (fuel model 102) everywhere, wind 15 mph from the west for 4 hours. */
async function seedLandscape(s: AppStore): Promise<void> {
  await s.grids.replaceGrid('fire_test_fuel', [raster(120, 100, 102)], 'test')
  await s.grids.replaceGrid(
    WIND_U_GRID,
    [0, 1, 2, 3].map(() => raster(12, 10, 15)),
    'test-wind',
  )
  await s.grids.replaceGrid(
    WIND_V_GRID,
    [0, 1, 2, 3].map(() => raster(12, 10, 0)),
    'test-wind',
  )
  await s.grids.replaceGrid('fire_consequence', [raster(24, 20, 5)], 'previous')
  const line = (id: string, lat: number) => ({
    geometry: {
      type: 'LineString' as const,
      coordinates: [
        [-106.6, lat],
        [-106.585, lat],
      ],
    },
    properties: { identifier: id, circuit_length: 1 },
  })
  await s.replaceDataset('distribution_lines', [line('C-1', 35.03), line('C-2', 35.07)])
  // Buildings: 40 small squares east (downwind) of the lines.
  const buildings = []
  for (let i = 0; i < 40; i++) {
    const x = -106.58 + (i % 10) * 0.002
    const y = 35.025 + Math.floor(i / 10) * 0.004
    const d = 0.0001
    buildings.push({
      geometry: {
        type: 'Polygon' as const,
        coordinates: [
          [
            [x, y],
            [x + d, y],
            [x + d, y + d],
            [x, y],
          ],
        ],
      },
      properties: {},
    })
  }
  await s.replaceDataset('buildings', buildings)
  const area = (id: string, lat: number) => ({
    geometry: {
      type: 'Polygon' as const,
      coordinates: [
        [
          [-106.6, lat],
          [-106.58, lat],
          [-106.58, lat + 0.01],
          [-106.6, lat],
        ],
      ],
    },
    properties: { identifier: id, structures_impacted: 7, fire_consequence_score: 0.5, arrival_hours: 2 },
  })
  await s.replaceDataset('fire_consequence', [area('C-1', 35.03), area('C-2', 35.07)])
  // The PSPS and EPSS circuits config/fire.yaml scores, with the demo's drawn values and their grids.
  await s.replaceDataset('public_safety_power_shutoff', [
    {
      ...line('C-1', 35.03),
      properties: { identifier: 'C-1', fire_risk_score: 0.99, fire_risk_computed: 'drawn' },
    },
    {
      ...line('C-2', 35.07),
      properties: { identifier: 'C-2', fire_risk_score: 0.99, fire_risk_computed: 'drawn' },
    },
    {
      ...line('C-9', 35.09),
      properties: { identifier: 'C-9', fire_risk_score: 0.99, fire_risk_computed: 'drawn' },
    },
  ])
  await s.replaceDataset('enhanced_powerline_safety_settings', [
    {
      ...line('C-1', 35.03),
      properties: { identifier: 'C-1', epss_risk_score: 0.99, epss_risk_computed: 'drawn' },
    },
  ])
  await s.grids.replaceGrid('psps_score', [raster(24, 20, 0.5)], 'drawn')
  await s.grids.replaceGrid('epss_score', [raster(24, 20, 0.5)], 'drawn')
}

async function waitFor<T>(probe: () => Promise<T | undefined>, ms = 15_000): Promise<T> {
  const until = Date.now() + ms
  for (;;) {
    const v = await probe()
    if (v !== undefined) return v
    if (Date.now() > until) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 50))
  }
}

async function runRow(id: number) {
  const res = await app.inject({ method: 'GET', url: `/api/fire/runs/${id}`, headers: as(ADMIN) })
  expect(res.statusCode).toBe(200)
  return res.json() as {
    run: {
      id: number
      status: string
      batchesDone: number
      batchesTotal: number
      servers: { server: string; done: number }[]
    }
    circuits: { circuit: string; summary: Record<string, unknown> }[]
  }
}

const finished = (id: number) => async () => {
  const r = await runRow(id)
  return r.run.status === 'running' ? undefined : r
}

beforeAll(async () => {
  dataDir = tempDir('emberline-fire-runs-')
  store = await openDataDirStore(dataDir, defaultCatalog())
  await seedLandscape(store)
  app = await buildApp({
    dataDir,
    demo: true,
    store,
    verifier,
    fireRuns: { settings: SETTINGS, server: 'server-a' },
  })
  await app.ready()
}, 30_000)

afterAll(async () => {
  await app?.close()
  await store?.close()
})

describe('fire consequence runs', () => {
  it('answers 401 signed out and 403 without the fire_runs permission', async () => {
    for (const [method, url] of [
      ['GET', '/api/fire/runs'],
      ['GET', '/api/fire/runs/1'],
      ['POST', '/api/fire/runs'],
    ] as const) {
      expect((await app.inject({ method, url })).statusCode).toBe(401)
      expect((await app.inject({ method, url, headers: as(MEMBER) })).statusCode).toBe(403)
    }
    const bad = await app.inject({ method: 'GET', url: '/api/fire/runs/x', headers: as(ADMIN) })
    expect(bad.statusCode).toBe(400)
    expect(
      (await app.inject({ method: 'GET', url: '/api/fire/runs/999', headers: as(ADMIN) })).statusCode,
    ).toBe(404)
  })

  it('claims each batch once with two store connections, and takes over a dead claimer’s batch', async () => {
    const other = await openDataDirStore(dataDir, defaultCatalog())
    try {
      const created = await app.inject({ method: 'POST', url: '/api/fire/runs', headers: as(ADMIN) })
      expect(created.statusCode).toBe(202)
      const { id } = created.json() as { id: number }
      // A second request while it runs is refused.
      expect(
        (await app.inject({ method: 'POST', url: '/api/fire/runs', headers: as(ADMIN) })).statusCode,
      ).toBe(409)
      const total = (await runRow(id)).run.batchesTotal
      expect(total).toBe(6) // 2 lines × 4 ignitions (0, 500, 1000, ~1370 m) in batches of 3, 2 starts
      // Two claimers race until nothing is left: every batch exactly once.
      const claims: ClaimedFireBatch[] = []
      const claimer = async (s: AppStore, name: string) => {
        for (;;) {
          const b = await s.fireRuns.claimBatch(name, 60_000)
          if (!b) return
          claims.push(b)
        }
      }
      await Promise.all([
        claimer(store, 'claimer-1'),
        claimer(other, 'claimer-2'),
        claimer(store, 'claimer-3'),
      ])
      expect(claims.map((c) => c.seq).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5])
      // Their heartbeats stop (the claimers died): after the timeout a live server takes them again.
      await new Promise((r) => setTimeout(r, 300))
      const again = await other.fireRuns.claimBatch('server-b', 200)
      expect(again).not.toBeNull()
      expect(again!.attempt).toBe(2)
      const dead = claims.find((c) => c.seq === again!.seq)!
      // The dead claimer's late answer is refused; the live one's is taken.
      const late = await store.fireRuns.completeBatch(dead, 'claimer-1', [], 1, new Date().toISOString())
      const lateOther = await store.fireRuns.completeBatch(dead, 'claimer-2', [], 1, new Date().toISOString())
      const lateThird = await store.fireRuns.completeBatch(dead, 'claimer-3', [], 1, new Date().toISOString())
      expect([late.accepted, lateOther.accepted, lateThird.accepted]).toEqual([false, false, false])
      expect(await other.fireRuns.heartbeat(again!.runId, again!.seq, 'server-b', again!.attempt)).toBe(true)
      // Hand the rest to this server's worker loop with a short claim timeout: it runs them all.
      await other.fireRuns.failBatch(again!, 'server-b', 'handed back', 3, new Date().toISOString())
      const service = new FireRunService({
        store,
        settings: { ...SETTINGS, claimTimeoutMs: 150 },
        window: windowSettings(true),
        server: 'server-a',
      })
      service.startLoop()
      const done = await waitFor(finished(id), 25_000)
      await service.close()
      expect(done.run.status).toBe('complete')
      expect(done.run.batchesDone).toBe(total)
      expect(done.run.servers.reduce((n, s) => n + s.done, 0)).toBe(total)

      // Per-circuit results are circuitSummary of the per-ignition results.
      const ignitions = await store.fireRuns.ignitionResults(id)
      expect(ignitions).toHaveLength(16)
      expect(new Set(ignitions.map((r) => `${r.startHour}/${r.ignitionId}`)).size).toBe(16)
      const expected = summariseRun(ignitions).map((s) => ({
        circuit: s.circuit,
        summary: { ignitions: s.ignitions, max: s.max, p90: s.p90 },
      }))
      expect(done.circuits).toEqual(expected)
      expect(expected.map((c) => c.circuit)).toEqual(['C-1', 'C-2'])
      expect(ignitions.some((r) => r.burnedAcres > 0)).toBe(true)

      // The dataset rows carry the score and the provenance.
      const rows = await store.allFeatures('fire_consequence')
      for (const row of rows) {
        const s = expected.find((c) => c.circuit === row.properties.identifier)!.summary as {
          max: { buildings: number }
        }
        expect(row.properties.structures_impacted).toBe(s.max.buildings)
        expect(row.properties.fire_consequence_score).toBe(
          Math.round(Math.min(1, s.max.buildings / 1000) * 100) / 100,
        )
        expect(String(row.properties.consequence_computed)).toMatch(
          new RegExp(
            `^computed \\d\\d:\\d\\d from wind run \\S+, fuels fire_test_fuel \\(test, version \\w+\\) \\(run ${id}\\)$`,
          ),
        )
      }
      // The consequence raster: one band per forecast hour of the grid (hourly: 18 in layers.yaml).
      const grid = (await store.grids.list()).find((g) => g.id === 'fire_consequence')!
      expect(grid.hours).toBe(18)
      expect(grid.source).toBe(`fire-run:${id}`)

      // The PSPS and EPSS scores of config/fire.yaml: per circuit with the same provenance ...
      const provenance = rows[0]!.properties.consequence_computed
      const summaryOf = (c: unknown) =>
        expected.find((e) => e.circuit === c)?.summary as
          { p90: { buildings: number; burnedAcres: number } } | undefined
      const score = (v: number, at: number) => Math.round(Math.min(1, v / at) * 100) / 100
      const psps = await store.allFeatures('public_safety_power_shutoff')
      expect(psps).toHaveLength(3)
      for (const row of psps) {
        const s = summaryOf(row.properties.identifier)
        // A circuit without ignitions (C-9 has no line) scores 0.
        expect(row.properties.fire_risk_score).toBe(s ? score(s.p90.buildings, 500) : 0)
        expect(row.properties.fire_risk_computed).toBe(provenance)
      }
      const epss = await store.allFeatures('enhanced_powerline_safety_settings')
      expect(epss[0]!.properties.epss_risk_score).toBe(score(summaryOf('C-1')!.p90.burnedAcres, 5000))
      expect(epss[0]!.properties.epss_risk_computed).toBe(provenance)
      // ... and as rasters: PSPS hourly (band h from the latest start at or before h), EPSS one band.
      const pspsGrid = (await store.grids.list()).find((g) => g.id === 'psps_score')!
      expect([pspsGrid.hours, pspsGrid.source]).toEqual([18, `fire-run:${id}`])
      const highest = (start: number | null, value: (r: (typeof ignitions)[number]) => number) =>
        Math.max(...ignitions.filter((r) => start === null || r.startHour === start).map(value))
      const rasterMax = async (gridId: string, hour: number) =>
        Math.max(...Array.from((await store.grids.grid(gridId, hour))!.data).filter((v) => !Number.isNaN(v)))
      const pspsScore = (r: (typeof ignitions)[number]) => score(r.buildings, 500)
      expect(await rasterMax('psps_score', 0)).toBeCloseTo(highest(0, pspsScore), 5)
      expect(await rasterMax('psps_score', 1)).toBeCloseTo(highest(0, pspsScore), 5)
      expect(await rasterMax('psps_score', 17)).toBeCloseTo(highest(2, pspsScore), 5)
      const epssGrid = (await store.grids.list()).find((g) => g.id === 'epss_score')!
      expect([epssGrid.hours, epssGrid.source]).toEqual([1, `fire-run:${id}`])
      expect(await rasterMax('epss_score', 0)).toBeCloseTo(
        highest(null, (r) => score(r.burnedAcres, 5000)),
        5,
      )
    } finally {
      await other.close()
    }
  }, 40_000)

  it('a completed run keeps the batches of the newest keepDetailRuns finished runs only', async () => {
    const earlier = (await store.fireRuns.runs(100)).filter((r) => r.status === 'complete')
    expect(earlier.length).toBeGreaterThan(0)
    expect((await store.fireRuns.ignitionResults(earlier[0]!.id)).length).toBeGreaterThan(0)
    const service = new FireRunService({
      store,
      settings: { ...SETTINGS, keepDetailRuns: 1 },
      window: windowSettings(true),
      server: 'server-a',
    })
    const { id } = await service.requestRun('admin', null)
    service.startLoop()
    const done = await waitFor(finished(id), 25_000)
    await service.close()
    expect(done.run.status).toBe('complete')
    expect(await store.fireRuns.ignitionResults(id)).toHaveLength(16)
    for (const r of earlier) {
      expect(await store.fireRuns.ignitionResults(r.id)).toEqual([])
      // Its row and per-circuit results stay.
      expect((await runRow(r.id)).run.status).toBe('complete')
      expect((await store.fireRuns.circuitResults(r.id)).map((c) => c.circuit)).toEqual(['C-1', 'C-2'])
    }
  })

  it('a failed run leaves the previous results in place', async () => {
    const before = (await store.allFeatures('fire_consequence')).map((f) => f.properties)
    const gridBefore = await store.grids.version('fire_consequence')
    const failing = new FireRunService({
      store,
      settings: { ...SETTINGS, maxAttempts: 1 },
      window: windowSettings(true),
      server: 'server-fails',
      pool: {
        size: 1,
        run: async () => {
          throw new Error('the simulation broke')
        },
        close: async () => undefined,
      },
    })
    const { id, created } = await failing.requestRun('admin', null)
    expect(created).toBe(true)
    failing.startLoop()
    const done = await waitFor(finished(id))
    await failing.close()
    expect(done.run.status).toBe('failed')
    const list = (await app.inject({ method: 'GET', url: '/api/fire/runs', headers: as(ADMIN) })).json() as {
      runs: { id: number; status: string; error: string }[]
    }
    expect(list.runs[0]).toMatchObject({ id, status: 'failed' })
    expect(list.runs[0]!.error).toContain('the simulation broke')
    expect((await store.allFeatures('fire_consequence')).map((f) => f.properties)).toEqual(before)
    expect(await store.grids.version('fire_consequence')).toBe(gridBefore)
  })

  it('the leader starts a run after each weather update, once; a follower does not', async () => {
    const before = (await store.fireRuns.runs(100)).length
    const service = new FireRunService({
      store,
      settings: { ...SETTINGS, weatherPollMs: 60_000 },
      window: windowSettings(true),
      server: 'server-leader',
    })
    // The wind of the earlier runs already has its run: nothing new.
    await service.weatherTick()
    expect((await store.fireRuns.runs(100)).length).toBe(before)
    // A weather update: a new wind version.
    await store.grids.replaceGrid(
      WIND_U_GRID,
      [0, 1, 2, 3].map(() => raster(12, 10, 20)),
      'test-wind-2',
    )
    const follower: Leadership = {
      isLeader: false,
      whileLeader: (task) => new LeaderTasks(() => undefined).add(task),
      close: async () => undefined,
    }
    const stopFollower = service.start(follower)
    stopFollower()
    expect((await store.fireRuns.runs(100)).length).toBe(before)
    const leader = soleLeader()
    const stop = service.start(leader)
    const run = await waitFor(async () => (await store.fireRuns.runs(1)).find((r) => r.trigger === 'weather'))
    stop()
    expect(run.windVersion).toBe(await store.grids.version(WIND_U_GRID))
    expect(run.requestedBy).toBeNull()
    // Once per version: another check finds it.
    await service.weatherTick()
    expect((await store.fireRuns.runs(100)).filter((r) => r.windVersion === run.windVersion)).toHaveLength(1)
    await service.close()
    await leader.close()
  })
})
