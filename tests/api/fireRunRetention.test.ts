import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppStore } from '../../src/server/store/AppStore'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { NewFireRun } from '../../src/server/store/fireRunStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { tempDir } from './testApp'

// A run's batches hold its ignitions and every ignition's result (266,144 on the demo, a run after
// each weather update): only the newest `keepDetailRuns` finished runs keep them (docs/fire.md
// "Consequence run"); older runs keep their row and per-circuit results, and a running run is never
// touched. On the suite's store (SQLite here, PostgreSQL under --project api-pg).

function newRun(): NewFireRun {
  return {
    trigger: 'admin',
    requestedBy: 'test',
    windVersion: null,
    referenceTime: '2026-11-28T00:00:00.000Z',
    startHours: [0],
    settings: { hours: 1 },
    provenance: {},
    batches: [0, 1].map((i) => ({
      startHour: 0,
      startTime: '2026-11-28T00:00:00.000Z',
      ignitions: [{ circuit: 'C', ignitionId: `l:${i}`, lon: -106 + i * 0.01, lat: 35 }],
    })),
    createdAt: new Date().toISOString(),
  }
}

let store: AppStore

beforeAll(async () => {
  store = await openDataDirStore(tempDir('emberline-fire-retention-'), defaultCatalog())
}, 30_000)

afterAll(async () => {
  await store?.close()
})

/** Creates a run and completes its batches with one result each; `finish` ends it complete. */
async function run(finish: boolean): Promise<number> {
  const { id, created } = await store.fireRuns.createRun(newRun())
  expect(created).toBe(true)
  for (let k = 0; k < 2; k++) {
    const b = (await store.fireRuns.claimBatch('server-a', 60_000))!
    expect(b.runId).toBe(id)
    const [ignition] = b.ignitions
    await store.fireRuns.completeBatch(
      b,
      'server-a',
      [{ ...ignition!, burnedAcres: 10 + k, buildings: k, population: 0, criticalFacilities: 0 }],
      5,
      new Date().toISOString(),
    )
  }
  if (finish)
    await store.fireRuns.finishRun(
      id,
      { status: 'complete', circuits: [{ circuit: 'C', summary: { ignitions: 2 } }] },
      new Date().toISOString(),
    )
  return id
}

describe('consequence run retention', () => {
  it('keeps the batches of the newest finished runs, and every run’s row and circuit results', async () => {
    const finished = [await run(true), await run(true), await run(true)]
    const running = await run(false)
    expect(await store.fireRuns.pruneRunDetail(2)).toBe(2) // the oldest run's two batches
    const [oldest, middle, newest] = finished
    expect(await store.fireRuns.ignitionResults(oldest!)).toEqual([])
    expect((await store.fireRuns.ignitionResults(middle!)).map((r) => r.burnedAcres)).toEqual([10, 11])
    expect(await store.fireRuns.ignitionResults(newest!)).toHaveLength(2)
    expect(await store.fireRuns.ignitionResults(running)).toHaveLength(2)
    // The pruned run: its row (status, batches total) and per-circuit results stay.
    const row = await store.fireRuns.run(oldest!)
    expect(row?.status).toBe('complete')
    expect(row?.batchesTotal).toBe(2)
    expect(await store.fireRuns.circuitResults(oldest!)).toEqual([
      { circuit: 'C', summary: { ignitions: 2 } },
    ])
    // Nothing more to delete; keeping one run deletes the middle one's; the running run stays.
    expect(await store.fireRuns.pruneRunDetail(2)).toBe(0)
    expect(await store.fireRuns.pruneRunDetail(1)).toBe(2)
    expect(await store.fireRuns.ignitionResults(middle!)).toEqual([])
    expect(await store.fireRuns.ignitionResults(running)).toHaveLength(2)
  })
})
