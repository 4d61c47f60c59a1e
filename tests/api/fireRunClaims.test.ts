import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppStore } from '../../src/server/store/AppStore'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { ClaimedFireBatch, FireBatchRef, NewFireRun } from '../../src/server/store/fireRunStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { FireRunService, type BatchPool } from '../../src/server/fire/runs/FireRunService'
import type { FireRunInputs } from '../../src/server/fire/runs/fireBatchProtocol'
import { DEFAULT_FIRE_RUN_SETTINGS } from '../../src/server/fire/runs/fireRunSettings'
import { windowSettings } from '../../src/server/grids/gridCatalog'
import { tempDir } from './testApp'

// Claims of the consequence run's job table keep locality (issue #31, docs/fire.md "Claims keep to a
// range"), on the suite's store (SQLite here, PostgreSQL under --project api-pg): a claimer takes
// the batch after its last one while that is claimable, and otherwise starts a new range — at the
// run's first batch, or in the middle of the longest run of claimable batches — so two servers work
// on batches far apart (each mostly on its own landscape blocks). Every batch is still taken once,
// nobody waits for another's claim, and a dead claimer's batches are taken over.

const BATCHES = 40

function newRun(batches = BATCHES): NewFireRun {
  return {
    trigger: 'admin',
    requestedBy: 'test',
    windVersion: null,
    referenceTime: '2026-11-28T00:00:00.000Z',
    startHours: [0],
    settings: { hours: 1 },
    provenance: {},
    batches: Array.from({ length: batches }, (_, i) => ({
      startHour: 0,
      startTime: '2026-11-28T00:00:00.000Z',
      ignitions: [{ circuit: 'C', ignitionId: `l:${i}`, lon: -106 + i * 0.01, lat: 35 }],
    })),
    createdAt: new Date().toISOString(),
  }
}

/** Contiguous ranges of a claimer's seqs in claim order (a jump starts a new range). */
const ranges = (seqs: readonly number[]) => seqs.filter((s, i) => i === 0 || s !== seqs[i - 1]! + 1).length
const ref = (b: ClaimedFireBatch | null | undefined): FireBatchRef | null =>
  b ? { runId: b.runId, seq: b.seq } : null

let dataDir: string
let store: AppStore
let other: AppStore

beforeAll(async () => {
  dataDir = tempDir('emberline-fire-claims-')
  store = await openDataDirStore(dataDir, defaultCatalog())
  // A second connection to the same store: another server.
  other = await openDataDirStore(dataDir, defaultCatalog())
}, 30_000)

afterAll(async () => {
  await other?.close()
  await store?.close()
})

/** A new running run (the previous one ended). */
async function freshRun(batches = BATCHES): Promise<number> {
  for (const r of await store.fireRuns.runs(5))
    if (r.status === 'running')
      await store.fireRuns.finishRun(r.id, { status: 'failed', error: 'next test' }, new Date().toISOString())
  const { id, created } = await store.fireRuns.createRun(newRun(batches))
  expect(created).toBe(true)
  return id
}

describe('fire run claims keep locality', () => {
  it('two servers claiming in turn: one from the start, the other from the middle, each batch once', async () => {
    const id = await freshRun()
    const seqs: Record<'a' | 'b', number[]> = { a: [], b: [] }
    const last: Record<'a' | 'b', FireBatchRef | null> = { a: null, b: null }
    // Alternate claims, as two equally fast servers do.
    for (let turn = 0; turn < BATCHES + 4; turn++) {
      const who = turn % 2 === 0 ? 'a' : 'b'
      const b = await (who === 'a' ? store : other).fireRuns.claimBatch(`server-${who}`, 60_000, last[who])
      if (!b) continue
      expect(b.runId).toBe(id)
      seqs[who].push(b.seq)
      last[who] = ref(b)
    }
    // Every batch exactly once.
    expect([...seqs.a, ...seqs.b].sort((x, y) => x - y)).toEqual(Array.from({ length: BATCHES }, (_, i) => i))
    // A works up from seq 0; B starts in the middle of what was left (1…39) and works up from there.
    expect(seqs.a.slice(0, 3)).toEqual([0, 1, 2])
    expect(seqs.b[0]).toBe(20)
    expect(seqs.b.slice(0, 3)).toEqual([20, 21, 22])
    // Each claimer's batches form one contiguous range (the alternate order gave 20 ranges each).
    expect(ranges(seqs.a)).toBe(1)
    expect(ranges(seqs.b)).toBe(1)
  })

  it('a claimer whose range runs into another’s takes the middle of the longest claimable range', async () => {
    await freshRun()
    let a: ClaimedFireBatch | null = null
    let b: ClaimedFireBatch | null = null
    a = await store.fireRuns.claimBatch('server-a', 60_000, null) // 0
    b = await other.fireRuns.claimBatch('server-b', 60_000, null) // 20 (middle of 1…39)
    expect([a!.seq, b!.seq]).toEqual([0, 20])
    // A is three times faster: when it reaches B's start, B has claimed 20…27.
    const aSeqs: number[] = [0]
    for (let i = 0; i < 19; i++) {
      a = await store.fireRuns.claimBatch('server-a', 60_000, ref(a))
      aSeqs.push(a!.seq)
      if (i % 3 === 0) b = await other.fireRuns.claimBatch('server-b', 60_000, ref(b))
    }
    expect(aSeqs).toEqual(Array.from({ length: 20 }, (_, i) => i))
    expect(b!.seq).toBe(27)
    // 20 is B's: A starts in the middle of 28…39, leaving B the lower half.
    a = await store.fireRuns.claimBatch('server-a', 60_000, ref(a))
    expect(a!.seq).toBe(28 + Math.floor(12 / 2))
    b = await other.fireRuns.claimBatch('server-b', 60_000, ref(b))
    expect(b!.seq).toBe(28)
  })

  it('many claimers at once (two connections) take each batch exactly once, in few ranges', async () => {
    await freshRun()
    const claims: { who: string; seq: number }[] = []
    const claimer = async (s: AppStore, who: string) => {
      let last: FireBatchRef | null = null
      for (;;) {
        const b: ClaimedFireBatch | null = await s.fireRuns.claimBatch(who, 60_000, last)
        if (!b) return
        claims.push({ who, seq: b.seq })
        last = ref(b)
      }
    }
    await Promise.all([
      claimer(store, 'c1'),
      claimer(other, 'c2'),
      claimer(store, 'c3'),
      claimer(other, 'c4'),
    ])
    expect(claims.map((c) => c.seq).sort((x, y) => x - y)).toEqual(
      Array.from({ length: BATCHES }, (_, i) => i),
    )
    // Whatever the interleaving, a claimer keeps to ranges: far fewer than its claims.
    for (const who of ['c1', 'c2', 'c3', 'c4']) {
      const mine = claims.filter((c) => c.who === who).map((c) => c.seq)
      if (mine.length >= 6) expect(ranges(mine)).toBeLessThanOrEqual(Math.ceil(mine.length / 2))
    }
  })

  it('a dead claimer’s batches are taken over after the timeout, and its late answer is refused', async () => {
    await freshRun(6)
    const dead: ClaimedFireBatch[] = []
    let last: FireBatchRef | null = null
    for (let i = 0; i < 6; i++) {
      const b = await store.fireRuns.claimBatch('dead', 60_000, last)
      dead.push(b!)
      last = ref(b)
    }
    expect(dead.map((b) => b.seq)).toEqual([0, 1, 2, 3, 4, 5])
    expect(await other.fireRuns.claimBatch('live', 60_000, null)).toBeNull()
    // Its heartbeats stop: after 200 ms a live server takes the batches again, in order, from seq 0.
    await new Promise((r) => setTimeout(r, 300))
    const first = await other.fireRuns.claimBatch('live', 200, null)
    expect([first!.seq, first!.attempt]).toEqual([0, 2])
    const second = await other.fireRuns.claimBatch('live', 200, ref(first))
    expect([second!.seq, second!.attempt]).toEqual([1, 2])
    const late = await store.fireRuns.completeBatch(dead[0]!, 'dead', [], 1, new Date().toISOString())
    expect(late.accepted).toBe(false)
    const live = await other.fireRuns.completeBatch(first!, 'live', [], 1, new Date().toISOString())
    expect(live.accepted).toBe(true)
  })

  it('a server’s threads read a run’s inputs once, before its first claim, and each keeps to a range', async () => {
    const id = await freshRun(12)
    // Another server holds the last batch, so the run never completes here (no outputs to write).
    const held = await other.fireRuns.claimBatch('holder', 60_000, { runId: id, seq: 10 })
    expect(held!.seq).toBe(11)
    const events: string[] = []
    // This server's store, its claims recorded.
    const fireRuns = new Proxy(store.fireRuns, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target) as unknown
        if (prop === 'claimBatch')
          return async (...args: Parameters<typeof target.claimBatch>) => {
            const b = await target.claimBatch(...args)
            events.push(b ? `claim ${b.seq}` : 'claim none')
            return b
          }
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
      },
    })
    const spied = new Proxy(store, {
      get(target, prop) {
        if (prop === 'fireRuns') return fireRuns
        const v = Reflect.get(target, prop, target) as unknown
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
      },
    })
    // Two threads that record what they are sent: the inputs (to read) and each batch, by thread.
    const lanes: number[][] = [[], []]
    const pool: BatchPool = {
      size: 2,
      async prepare(inputs: FireRunInputs) {
        events.push(`read ${inputs.key}`)
      },
      async run(_inputs, key, _hour, ignitions, lane) {
        expect(key).toBe(String(id))
        lanes[lane!]!.push(Number(ignitions[0]!.ignitionId.split(':')[1]))
        return []
      },
      async close() {},
    }
    const service = new FireRunService({
      store: spied,
      settings: { ...DEFAULT_FIRE_RUN_SETTINGS, pollMs: 20, workers: 2 },
      window: windowSettings(true),
      server: 'server-a',
      pool,
    })
    service.startLoop()
    const until = Date.now() + 10_000
    while (lanes[0]!.length + lanes[1]!.length < 11 && Date.now() < until)
      await new Promise((r) => setTimeout(r, 20))
    await service.close()
    // The inputs were read once, before the first claim; every batch but the held one ran.
    expect(events.filter((e) => e.startsWith('read'))).toEqual([`read ${id}`])
    expect(events[0]).toBe(`read ${id}`)
    expect([...lanes[0]!, ...lanes[1]!].sort((x, y) => x - y)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    // Thread 0 from the run's start, thread 1 from the middle of what was left (1…10); each keeps
    // to its range (at most one jump, when one reaches the other's range: which depends on timing).
    expect(lanes[0]!.slice(0, 2)).toEqual([0, 1])
    expect(lanes[1]![0]).toBe(6)
    expect(ranges(lanes[0]!)).toBeLessThanOrEqual(2)
    expect(ranges(lanes[1]!)).toBeLessThanOrEqual(2)
  })
})
