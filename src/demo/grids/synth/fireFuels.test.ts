import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { findFuelModel, isBurnable } from '../../../fire/fuelModels'
import { ELEVATION_GRID, FUEL_MODEL_GRID, openFireLandscape } from '../../../server/fire/landscape'
import { GridStore } from '../../../server/store/gridStore'
import { migrate } from '../../../server/store/migrate'
import { fireConfig } from '../../../shared/config'
import { DEFAULT_FIRE_RUN_SETTINGS } from '../../../server/fire/runs/fireRunSettings'
import { seedGrids } from '../seedGrids'
import { fbfm40For } from './fireFuels'

// A coarse New Mexico (0.1°) keeps the test fast; the fire grids are seeded at twice its resolution.
const SHAPE = { nx: 62, ny: 58, west: -109.08, east: -102.88, south: 31.3, north: 37.1 }

describe('the demo fire landscape', () => {
  it('maps every cover kind to an FBFM40 model: non-burnable for water, towns, sand and crops', () => {
    expect(fbfm40For('water', 0, 1500, 0.5)).toBe(98)
    expect(fbfm40For('urban', 0, 1500, 0.5)).toBe(91)
    expect(fbfm40For('developed', 0, 1500, 0.5)).toBe(91)
    expect(fbfm40For('barren', 0, 1500, 0.5)).toBe(99)
    expect(fbfm40For('crops', 0, 1500, 0.5)).toBe(93)
    expect(fbfm40For('herbaceous', 0.2, 1500, 0.5)).toBe(101)
    expect(fbfm40For('herbaceous', 0.5, 1500, 0.5)).toBe(102)
    expect(fbfm40For('shrub', 0.4, 1700, 0.5)).toBe(122)
    // Timber by elevation: pinyon-juniper, ponderosa, spruce-fir.
    expect(fbfm40For('tree', 0.5, 2000, 0.5)).toBe(161)
    expect(fbfm40For('tree', 0.5, 2600, 0.5)).toBe(188)
    expect(fbfm40For('tree', 0.5, 3200, 0.5)).toBe(183)
    for (const kind of [
      'water',
      'urban',
      'developed',
      'barren',
      'crops',
      'herbaceous',
      'shrub',
      'tree',
    ] as const)
      for (const fraction of [0.1, 0.4, 0.6, 0.9])
        for (const z of [1200, 2100, 2500, 3000])
          for (const n of [0.1, 0.9]) expect(findFuelModel(fbfm40For(kind, fraction, z, n))).toBeDefined()
  })

  it('is seeded with the grids: valid FBFM40 codes, mostly burnable, elevation in metres, read by openFireLandscape', async () => {
    const db = new Database(':memory:')
    migrate(db)
    const grids = new GridStore(db)
    const store = {
      grids,
      dataset: () => undefined,
      records: async () => ({ records: [], total: 0 }),
      replaceDataset: async () => 0,
    }
    const result = await seedGrids(store as unknown as Parameters<typeof seedGrids>[0], {
      seed: 7,
      fires: [],
      shape: SHAPE,
    })
    expect(result.grids).toEqual(expect.arrayContaining([FUEL_MODEL_GRID, ELEVATION_GRID]))
    const fuel = grids.grid(FUEL_MODEL_GRID)!
    const elevation = grids.grid(ELEVATION_GRID)!
    expect([fuel.nx, fuel.ny]).toEqual([124, 116])
    const codes = new Map<number, number>()
    let cells = 0
    fuel.data.forEach((v, k) => {
      if (Number.isNaN(v)) {
        expect(elevation.data[k]).toBeNaN()
        return
      }
      cells++
      codes.set(v, (codes.get(v) ?? 0) + 1)
      expect(elevation.data[k]).toBeGreaterThan(500)
      expect(elevation.data[k]).toBeLessThan(4500)
    })
    for (const code of codes.keys()) expect(findFuelModel(code), `code ${code}`).toBeDefined()
    const burnable = [...codes].filter(([c]) => isBurnable(findFuelModel(c)!)).reduce((s, [, k]) => s + k, 0)
    expect(burnable / cells).toBeGreaterThan(0.8)
    // Grass, shrub and timber all occur.
    expect([...codes.keys()].some((c) => c >= 101 && c <= 109)).toBe(true)
    expect([...codes.keys()].some((c) => c >= 121 && c <= 149)).toBe(true)
    expect([...codes.keys()].some((c) => c >= 161 && c <= 189)).toBe(true)
    const land = await openFireLandscape(
      { grids },
      { fuelGrid: FUEL_MODEL_GRID, elevationGrid: ELEVATION_GRID },
    )
    expect(land.windHours).toBe(48) // the demo wind run (DEMO_WIND_HOURS): 8 starts every 3 h with 6-h fires fit
    // The Sandia crest east of Albuquerque is steep; the Llano Estacado is flat.
    const sandia = land.window({ centre: [-106.45, 35.2], halfSizeM: 3000, cellSizeM: 200 })
    const llano = land.window({ centre: [-103.3, 33.6], halfSizeM: 3000, cellSizeM: 200 })
    const mean = (a: Float32Array) => a.reduce((s, v) => s + v, 0) / a.length
    expect(mean(sandia.slopeDeg)).toBeGreaterThan(3 * mean(llano.slopeDeg))
    // The canopy grids config/fire.yaml names: a canopy over the timber models only, LANDFIRE-like values.
    const crown = fireConfig.landscape.crown
    const cover = grids.grid(crown.canopyCoverGrid)!
    const base = grids.grid(crown.canopyBaseHeightGrid)!
    const bulk = grids.grid(crown.canopyBulkDensityGrid)!
    let timber = 0
    fuel.data.forEach((code, k) => {
      if (Number.isNaN(code)) return
      const isTimber = code >= 161 && code <= 189
      if (isTimber) timber++
      expect(cover.data[k]! > 0, `code ${code}`).toBe(isTimber)
      if (!isTimber) return
      expect(cover.data[k]).toBeLessThanOrEqual(80)
      expect(base.data[k]).toBeGreaterThanOrEqual(0.799)
      expect(base.data[k]).toBeLessThanOrEqual(6)
      expect(bulk.data[k]).toBeGreaterThanOrEqual(0.0399)
      expect(bulk.data[k]).toBeLessThanOrEqual(0.2001)
    })
    expect(timber).toBeGreaterThan(0)
    const crowning = await openFireLandscape({ grids }, DEFAULT_FIRE_RUN_SETTINGS.landscape)
    expect(crowning.describe().canopy).toMatch(/, crown fire$/)
    expect(crowning.windHours).toBe(48)
  })
})
