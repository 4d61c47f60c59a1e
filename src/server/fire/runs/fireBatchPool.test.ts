import os from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import { FireBatchPool } from './fireBatchPool'
import { FIRE_THREAD_NICE, threadNice } from './threadPriority'
import { DEFAULT_MOISTURE, type FireLandscapeData } from '../landscape'
import type { GridRaster } from '../../grids/gridRaster'
import type { FireRunInputs } from './fireBatchProtocol'

// The fire worker threads run below the server thread's CPU priority (docs/fire.md "Consequence run:
// speed"): each renices its own thread (not the process), so tiles and sign-in get a core first.

const pool = new FireBatchPool(1)
afterAll(() => pool.close())

describe('the fire worker threads', () => {
  it.runIf(process.platform === 'linux')('lower their own priority, not the server thread’s', async () => {
    const before = os.getPriority()
    // Started ahead of the first batch (warm), each thread says its id once it has lowered its priority.
    await pool.warm()
    expect(pool.threadIds).toHaveLength(1)
    // A batch whose inputs carry no data: the thread starts, answers the error.
    await expect(pool.run(() => ({ key: 'k', hours: 1 }), 'k', 0, [])).rejects.toThrow(
      /neither a source nor data/,
    )
    const [tid, ...more] = pool.threadIds
    expect(more).toHaveLength(0)
    expect(tid).not.toBe(process.pid)
    // /proc/<pid>/task/<tid>/stat: the worker thread at nice 10, the server thread as it was.
    expect(threadNice(tid!)).toBe(Math.max(before, FIRE_THREAD_NICE))
    expect(threadNice(process.pid)).toBe(before)
    expect(os.getPriority()).toBe(before)
  })

  it('read a run’s inputs once when prepared, before any batch, and answer its batches from them', async () => {
    // A GR2 landscape with a 10 mph west wind, sent as data (no store to open).
    const ext = { west: -107.2, south: 33.8, east: -106.8, north: 34.2 }
    const flat = (v: number): GridRaster => ({ nx: 2, ny: 1, ...ext, data: Float32Array.from([v, v]) })
    const p = { id: 'x', version: 'v', source: 'test' }
    const landscape: FireLandscapeData = {
      fuel: flat(102),
      elevation: flat(1500),
      windU: [flat(10), flat(10)],
      windV: [flat(0), flat(0)],
      windTo20ftFactor: 1,
      moisture: DEFAULT_MOISTURE,
      provenance: { fuel: p, terrain: [p], wind: [p, p], canopy: [] },
    }
    const inputs: FireRunInputs = {
      key: 'run-7',
      landscape,
      assets: { buildings: [], criticalFacilities: [] },
      hours: 1,
      cellSizeM: 90,
    }
    const sent = pool.inputsSent
    // Unreadable inputs: prepare says so (and the thread is sent them again with its next batch).
    await expect(pool.prepare({ key: 'broken', hours: 1 })).rejects.toThrow(/neither a source nor data/)
    await pool.prepare(inputs)
    await pool.prepare(inputs) // already read: not sent again
    expect(pool.inputsSent - sent).toBe(2)
    const ignition = { circuit: 'C', ignitionId: 'L:0', lon: -107, lat: 34 }
    const run = () => {
      throw new Error('the inputs were sent again')
    }
    const first = await pool.run(run, 'run-7', 0, [ignition], 0)
    const second = await pool.run(run, 'run-7', 1, [{ ...ignition, ignitionId: 'L:1' }], 0)
    expect(pool.inputsSent - sent).toBe(2)
    expect(first[0]!.burnedAcres).toBeGreaterThan(0)
    expect(second[0]!.burnedAcres).toBeGreaterThan(0)
    // The thread's block cache served the second fire (same place, the next hour's blocks computed).
    const stats = pool.cacheStats()
    expect(stats.landHits).toBeGreaterThan(0)
    expect(stats.hits + stats.misses).toBeGreaterThan(0)
  })
})
