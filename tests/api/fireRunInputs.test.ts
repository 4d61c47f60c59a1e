import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { indexAssets, runIgnitions } from '../../src/server/fire/consequence'
import { fireLandscape } from '../../src/server/fire/landscape'
import { FireBatchPool } from '../../src/server/fire/runs/fireBatchPool'
import { keptGrids, loadRunInputs, runInputsSource } from '../../src/server/fire/runs/fireRunInputs'
import { DEFAULT_FIRE_RUN_SETTINGS, type FireRunSettings } from '../../src/server/fire/runs/fireRunSettings'
import { planFireRun, readPlan, runInputs } from '../../src/server/fire/runs/planFireRun'
import { windowSettings } from '../../src/server/grids/gridCatalog'
import type { GridRaster } from '../../src/server/grids/gridRaster'
import { WIND_U_GRID, WIND_V_GRID } from '../../src/server/grids/windGrid'
import type { AppStore } from '../../src/server/store/AppStore'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { tempDir } from './testApp'

// A consequence run's inputs are read by the worker thread, not the server thread (docs/fire.md
// "Consequence run"): the server thread sends only where they are (the store's file or database),
// the worker reads the grids and every building and facility on a connection of its own — and
// gets exactly what the server thread would have read, so the fires count the same.

const BBOX = { west: -106.62, south: 35.0, east: -106.5, north: 35.1 }
const raster = (nx: number, ny: number, value: (i: number) => number): GridRaster => ({
  nx,
  ny,
  ...BBOX,
  data: Float32Array.from({ length: nx * ny }, (_, i) => value(i)),
})

const SETTINGS: FireRunSettings = {
  ...DEFAULT_FIRE_RUN_SETTINGS,
  landscape: { fuelGrid: 'fire_inputs_fuel', elevationGrid: 'fire_inputs_elevation' },
  populationGrid: 'fire_inputs_population',
  workers: 1,
}
const RUN_SETTINGS = { cellSizeM: 90, windowHalfSizeM: 3000 }
const REFERENCE = '2026-07-01T13:00:00.000Z'

let store: AppStore
let dataDir: string

beforeAll(async () => {
  dataDir = tempDir()
  store = await openDataDirStore(dataDir, defaultCatalog())
  // GR2 grass with a strip of bare ground, a slope, a population, 15 mph from the west for 3 hours.
  await store.grids.replaceGrid(
    'fire_inputs_fuel',
    [raster(120, 100, (i) => (i % 120 === 80 ? 99 : 102))],
    'test',
  )
  await store.grids.replaceGrid('fire_inputs_elevation', [raster(60, 50, (i) => 1500 + (i % 60) * 4)], 'test')
  await store.grids.replaceGrid('fire_inputs_population', [raster(12, 10, (i) => (i % 3) * 100)], 'test')
  await store.grids.replaceGrid(
    WIND_U_GRID,
    [0, 1, 2].map(() => raster(12, 10, () => 15)),
    'test-wind',
  )
  await store.grids.replaceGrid(
    WIND_V_GRID,
    [0, 1, 2].map((h) => raster(12, 10, () => h)),
    'test-wind',
  )
  const square = (x: number, y: number) => ({
    geometry: {
      type: 'Polygon' as const,
      coordinates: [
        [
          [x, y],
          [x + 0.0001, y],
          [x + 0.0001, y + 0.0001],
          [x, y],
        ],
      ],
    },
    properties: {},
  })
  await store.replaceDataset(
    'buildings',
    Array.from({ length: 60 }, (_, i) =>
      square(-106.59 + (i % 12) * 0.002, 35.02 + Math.floor(i / 12) * 0.006),
    ),
  )
  // Two circuits' lines (a third line without a circuit places no ignitions).
  const line = (coordinates: number[][], identifier: string) => ({
    geometry: { type: 'LineString' as const, coordinates },
    properties: { identifier },
  })
  await store.replaceDataset('distribution_lines', [
    line(
      [
        [-106.61, 35.03],
        [-106.55, 35.03],
        [-106.55, 35.06],
      ],
      'C-1',
    ),
    line(
      [
        [-106.53, 35.02],
        [-106.52, 35.08],
      ],
      'C-2',
    ),
    line(
      [
        [-106.6, 35.09],
        [-106.51, 35.09],
      ],
      '',
    ),
  ])
  await store.replaceDataset('critical_infrastructure', [
    { geometry: { type: 'Point' as const, coordinates: [-106.57, 35.04] }, properties: {} },
  ])
}, 60_000)

afterAll(async () => {
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('a consequence run’s inputs, read by the worker', () => {
  it('the server thread sends where the inputs are, not the data; the worker reads the same data', async () => {
    const recipe = runInputsSource(store, SETTINGS, windowSettings(true), 'run-1', 3, RUN_SETTINGS, REFERENCE)
    expect(recipe).not.toBeNull()
    expect(recipe!.landscape).toBeUndefined()
    expect(recipe!.assets).toBeUndefined()
    expect(recipe!.source?.buildings?.id).toBe('buildings')
    // Small enough to send to a thread as it is.
    expect(JSON.stringify(structuredClone(recipe)).length).toBeLessThan(20_000)

    const read = await loadRunInputs(recipe!.source!)
    const main = await runInputs(store, SETTINGS, windowSettings(true), 'run-1', 3, RUN_SETTINGS, REFERENCE)
    expect(Array.from(read.assets.buildings)).toEqual(Array.from(main.assets!.buildings))
    expect(read.assets.buildings.length).toBe(120)
    expect(Array.from(read.assets.criticalFacilities)).toEqual([-106.57, 35.04])
    expect(read.assets.population?.data).toEqual(main.assets!.population?.data)
    expect(read.landscape.windowStart).toBe(main.landscape!.windowStart)
    expect(read.landscape.windU.length).toBe(3)
    expect(read.landscape.fuel.data).toEqual(main.landscape!.fuel.data)
    expect(read.landscape.elevation?.data).toEqual(main.landscape!.elevation?.data)
  })

  it('a worker thread given the source answers the fires the server thread’s data gives', async () => {
    const recipe = runInputsSource(
      store,
      SETTINGS,
      windowSettings(true),
      'run-2',
      3,
      RUN_SETTINGS,
      REFERENCE,
    )!
    const ignitions = [
      { ignitionId: 'l/1:0', circuit: 'C-1', lon: -106.6, lat: 35.03 },
      { ignitionId: 'l/1:1', circuit: 'C-1', lon: -106.6, lat: 35.05 },
      { ignitionId: 'l/2:0', circuit: 'C-2', lon: -106.52, lat: 35.05 }, // beyond the bare strip
    ]
    const pool = new FireBatchPool(1)
    try {
      const fromWorker = await pool.run(() => recipe, recipe.key, 1, ignitions)
      const main = await runInputs(store, SETTINGS, windowSettings(true), 'run-2', 3, RUN_SETTINGS, REFERENCE)
      const expected = runIgnitions(
        fireLandscape(main.landscape!),
        ignitions.map((i) => ({ ...i, lineId: i.ignitionId.split(':')[0]! })),
        1,
        3,
        indexAssets(main.assets!),
        { cellSizeM: 90, windowHalfSizeM: 3000 },
      )
      expect(fromWorker.map((r) => [r.ignitionId, r.burnedAcres, r.buildings, r.population])).toEqual(
        expected.map((r) => [r.ignitionId, r.burnedAcres, r.buildings, r.population]),
      )
      expect(fromWorker[0]!.burnedAcres).toBeGreaterThan(100)
      expect(fromWorker.some((r) => r.buildings > 0)).toBe(true)

      // Inputs the thread cannot read fail the batch, and are read again with the run's next batch.
      const broken = { ...recipe, key: 'run-3', source: { ...recipe.source!, populationGrid: 'x' } }
      const unreadable = {
        ...broken,
        source: { ...broken.source, landscape: { ...broken.source.landscape, fuelGrid: 'no_such_grid' } },
      }
      await expect(pool.run(() => unreadable, 'run-3', 1, ignitions)).rejects.toThrow(/no_such_grid/)
      const again = await pool.run(() => broken, 'run-3', 1, ignitions)
      expect(again.map((r) => r.burnedAcres)).toEqual(expected.map((r) => r.burnedAcres))
    } finally {
      await pool.close()
    }
  }, 60_000)

  it('the run is planned by a worker thread too: the same ignitions, hours and provenance as read here', async () => {
    const now = new Date(REFERENCE)
    // The server thread may not read the grids or the lines: only the worker can have planned it.
    const grids = store.grids
    const serverThread = new Proxy(store, {
      get(target, key) {
        if (key === 'allFeatures') return () => Promise.reject(new Error('lines read on the server thread'))
        if (key === 'grids')
          return {
            version: (id: string) => grids.version(id),
            grid: () => Promise.reject(new Error('grids read on the server thread')),
            list: () => Promise.reject(new Error('grids read on the server thread')),
          }
        const value: unknown = Reflect.get(target, key, target)
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
      },
    })
    const planned = await planFireRun(serverThread, SETTINGS, windowSettings(true), 'admin', 'tester', now)
    const start = new Date(planned.referenceTime)
    const here = await readPlan(
      store.grids,
      async function* (dataset) {
        if (store.dataset(dataset)) yield await store.allFeatures(dataset)
      },
      SETTINGS,
      start,
    )
    // 500 m spacing: the first line is ≈ 8.8 km long, the second ≈ 6.7 km; the third has no circuit.
    expect(here.ignitions.length).toBeGreaterThan(25)
    expect(new Set(here.ignitions.map((i) => i.circuit))).toEqual(new Set(['C-1', 'C-2']))
    const batched = planned.batches.filter((b) => b.startHour === 0).flatMap((b) => b.ignitions)
    expect(batched).toEqual(here.ignitions)
    expect(planned.settings.windHours).toBe(here.windHours)
    // One start (hour 0) of 6-h fires over 3 wind hours: its workers read all 3 (hours 0–6, held).
    expect(planned.startHours).toEqual([0])
    expect(planned.settings.windHoursRead).toBe(3)
    expect(planned.provenance).toMatchObject({
      ...here.described,
      grids: here.grids,
      ignitions: here.ignitions.length,
    })
  }, 60_000)

  it('a thread reads a grid again only when its version changed since its last run', async () => {
    const reads: string[] = []
    const counting = {
      list: () => store.grids.list(),
      grid: (id: string, hour = 0) => {
        reads.push(`${id}/${hour}`)
        return store.grids.grid(id, hour)
      },
    }
    const readRun = async (ids: [string, number][]) => {
      const { grids, keep } = keptGrids(counting)
      const out = []
      for (const [id, hour] of ids) out.push(await grids.grid(id, hour))
      keep()
      return out
    }
    const inputs: [string, number][] = [
      ['fire_inputs_fuel', 0],
      [WIND_U_GRID, 0],
      [WIND_U_GRID, 1],
    ]
    const first = await readRun(inputs)
    reads.length = 0
    // The next run, nothing changed: nothing is read, the same grids are answered.
    const second = await readRun(inputs)
    expect(reads).toEqual([])
    expect(second.map((g) => g?.data)).toEqual(first.map((g) => g?.data))
    expect(second[0]).toBe(first[0])
    // A weather update: the wind is read again, the fuels are not.
    await store.grids.replaceGrid(
      WIND_U_GRID,
      [0, 1, 2].map(() => raster(12, 10, () => 16)),
      'test-wind-2',
    )
    const third = await readRun(inputs)
    expect(reads).toEqual([`${WIND_U_GRID}/0`, `${WIND_U_GRID}/1`])
    expect(third[1]!.data[0]).toBe(16)
    expect(third[0]).toBe(first[0])
    // A run that did not use the fuels: the thread no longer keeps them.
    reads.length = 0
    await readRun([[WIND_U_GRID, 0]])
    await readRun(inputs)
    expect(reads).toEqual(['fire_inputs_fuel/0', `${WIND_U_GRID}/1`])
    // An unknown grid: read (and answered undefined) every time.
    reads.length = 0
    await readRun([['no_such_grid', 0]])
    await readRun([['no_such_grid', 0]])
    expect(reads).toEqual(['no_such_grid/0', 'no_such_grid/0'])
  })
})
