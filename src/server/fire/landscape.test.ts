import Database from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { fireBehaviourGrid } from '../../fire/fireBehaviourGrid'
import { findFuelModel } from '../../fire/fuelModels'
import type { GridRaster } from '../grids/gridRaster'
import { GridStore } from '../store/gridStore'
import { migrate } from '../store/migrate'
import { FireLandscapeError, openFireLandscape } from './landscape'

const EXTENT = { west: -107, south: 34, east: -106.8, north: 34.2 }
const M_PER_DEG_LAT = 110_574

function raster(nx: number, ny: number, fn: (lon: number, lat: number) => number): GridRaster {
  const data = new Float32Array(nx * ny)
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      const lon = EXTENT.west + ((i + 0.5) * (EXTENT.east - EXTENT.west)) / nx
      const lat = EXTENT.north - ((j + 0.5) * (EXTENT.north - EXTENT.south)) / ny
      data[j * nx + i] = fn(lon, lat)
    }
  return { nx, ny, ...EXTENT, data }
}

/** A plane rising to the north at 10 % (0.1 m per m) and a fuel grid: GR2 west half, NB9 east half. */
function store() {
  const db = new Database(':memory:')
  migrate(db)
  const grids = new GridStore(db)
  grids.replaceGrid('fuel', [raster(40, 40, (lon) => (lon < -106.9 ? 102 : 99))], 'test fuels')
  grids.replaceGrid(
    'elev',
    [raster(200, 200, (_lon, lat) => 1500 + 0.1 * (lat - 34) * M_PER_DEG_LAT)],
    'test dem',
  )
  // Wind 12 mph (10 m) towards the east: from the west (270°); hour 1 from the south.
  grids.replaceGrid('wind_u', [raster(4, 4, () => 12), raster(4, 4, () => 0)], 'wind run 2026-07-01T12Z')
  grids.replaceGrid('wind_v', [raster(4, 4, () => 0), raster(4, 4, () => 12)], 'wind run 2026-07-01T12Z')
  return { grids }
}

describe('openFireLandscape', () => {
  it('cuts windows of valid fuel codes, and slope and aspect that agree with the elevation', async () => {
    const land = await openFireLandscape(store(), {
      fuelGrid: 'fuel',
      elevationGrid: 'elev',
      windowStart: new Date('2026-07-01T12:00:00Z'),
    })
    const w = land.window({ centre: [-106.9, 34.1], halfSizeM: 3000, cellSizeM: 100 })
    expect(w.width).toBe(60)
    expect(w.height).toBe(60)
    expect(w.geoTransform[1]).toBeCloseTo(w.dLon)
    for (const code of new Set(w.fuelModel)) expect(findFuelModel(code), `fuel ${code}`).toBeDefined()
    expect(new Set(w.fuelModel)).toEqual(new Set([102, 99]))
    // West of −106.9 is grass, east bare ground.
    expect(w.fuelModel[30 * 60 + 5]).toBe(102)
    expect(w.fuelModel[30 * 60 + 55]).toBe(99)
    // A plane rising north at 10 %: slope 10 %, facing south (180°), everywhere inside.
    for (let r = 1; r < 59; r++)
      for (let c = 1; c < 59; c++) {
        const i = r * 60 + c
        expect(w.slopePercent[i]).toBeCloseTo(10, 1)
        expect(w.aspectDeg[i]).toBeCloseTo(180, 0)
      }
    expect(w.missing.every((m) => m === 0)).toBe(true)
  })

  it('gives the hourly 20-ft wind (mph, direction it blows from) and holds the last hour', async () => {
    const land = await openFireLandscape(store(), { fuelGrid: 'fuel', elevationGrid: 'elev' })
    const g = land.grid({ centre: [-106.9, 34.1], halfSizeM: 1000, cellSizeM: 100 })
    const h0 = land.wind(g, 0)
    expect(h0.windSpeedMph[0]).toBeCloseTo(12 * 0.87, 4)
    expect(h0.windFromDeg[0]).toBeCloseTo(270, 4)
    expect(land.wind(g, 1).windFromDeg[0]).toBeCloseTo(180, 4)
    expect(land.wind(g, 7).windFromDeg[5]).toBeCloseTo(180, 4)
  })

  it('reads only the wind hours asked for (a run reads those its fires burn in)', async () => {
    const s = store()
    s.grids.replaceGrid(
      'wind_u',
      [0, 1, 2, 3, 4].map((h) => raster(4, 4, () => h)),
      'wind run',
    )
    s.grids.replaceGrid(
      'wind_v',
      [0, 1, 2, 3, 4].map(() => raster(4, 4, () => 0)),
      'wind run',
    )
    const read: string[] = []
    const counting = {
      grids: {
        list: () => s.grids.list(),
        grid: (id: string, hour = 0) => {
          read.push(`${id}/${hour}`)
          return s.grids.grid(id, hour)
        },
      },
    }
    const land = await openFireLandscape(counting, { fuelGrid: 'fuel', windHoursRead: 3 })
    expect(land.windHours).toBe(3)
    expect(read.filter((k) => k.startsWith('wind_u/'))).toEqual(['wind_u/0', 'wind_u/1', 'wind_u/2'])
    // Hour 2 as stored (2 mph towards the east, at 20 ft), then held.
    const g = land.grid({ centre: [-106.9, 34.1], halfSizeM: 1000, cellSizeM: 100 })
    expect(land.wind(g, 2).windSpeedMph[0]).toBeCloseTo(2 * 0.87, 4)
    // More hours than are stored: every stored hour.
    expect((await openFireLandscape(s, { fuelGrid: 'fuel', windHoursRead: 9 })).windHours).toBe(5)
    expect((await openFireLandscape(s, { fuelGrid: 'fuel' })).windHours).toBe(5)
  })

  it('describes its inputs for popups, and names a missing grid', async () => {
    const land = await openFireLandscape(store(), {
      fuelGrid: 'fuel',
      elevationGrid: 'elev',
      windowStart: new Date('2026-07-01T12:00:00Z'),
    })
    const d = land.describe()
    expect(d.fuels).toMatch(/^fuel \(test fuels, version [0-9a-f]{16}\)$/)
    expect(d.terrain).toContain('elev (test dem')
    expect(d.wind).toContain('wind run 2026-07-01T12Z')
    expect(d.wind).toContain('hour 0 at 2026-07-01T12:00:00.000Z')
    expect(land.hourAt(new Date('2026-07-01T15:30:00Z'))).toBe(3)
    await expect(openFireLandscape(store(), { fuelGrid: 'nope' })).rejects.toThrow(FireLandscapeError)
    await expect(openFireLandscape(store(), { fuelGrid: 'nope' })).rejects.toThrow(/grid nope is not stored/)
  })

  it('crowns where the four canopy grids are stored, as the simulation hands them to the core', async () => {
    // Timber litter under a dense, low canopy (TU5), flat, wind 30 mph (10 m) from the west.
    const canopied = (withBulkDensity: boolean, foliarMoisturePercent?: number) => {
      const db = new Database(':memory:')
      migrate(db)
      const grids = new GridStore(db)
      grids.replaceGrid('fuel', [raster(10, 10, () => 165)], 'test fuels')
      grids.replaceGrid('elev', [raster(10, 10, () => 2000)], 'test dem')
      grids.replaceGrid('wind_u', [raster(2, 2, () => 30)], 'wind')
      grids.replaceGrid('wind_v', [raster(2, 2, () => 0)], 'wind')
      grids.replaceGrid('cc', [raster(10, 10, () => 70)], 'cover %')
      grids.replaceGrid('ch', [raster(10, 10, () => 18)], 'height m')
      grids.replaceGrid('cbh', [raster(10, 10, () => 1.5)], 'base height m')
      if (withBulkDensity) grids.replaceGrid('cbd', [raster(10, 10, () => 0.2)], 'bulk density kg/m3')
      return openFireLandscape(
        { grids },
        {
          fuelGrid: 'fuel',
          elevationGrid: 'elev',
          canopyCoverGrid: 'cc',
          canopyHeightGrid: 'ch',
          canopyBaseHeightGrid: 'cbh',
          canopyBulkDensityGrid: 'cbd',
          ...(foliarMoisturePercent ? { foliarMoisturePercent } : {}),
        },
      )
    }
    const burn = async (withBulkDensity: boolean, foliarMoisturePercent?: number) => {
      const land = await canopied(withBulkDensity, foliarMoisturePercent)
      const g = land.grid({ centre: [-106.9, 34.1], halfSizeM: 500, cellSizeM: 100 })
      const wind = land.wind(g, 0)
      const fire = fireBehaviourGrid(land.window(g), {
        moisture: land.data.moisture,
        ...wind,
        windHeight: '20ft',
      })
      return { land, wind, fire }
    }
    const crown = await burn(true)
    const w = crown.land.window(crown.land.grid({ centre: [-106.9, 34.1], halfSizeM: 500, cellSizeM: 100 }))
    expect(w.canopyBaseHeightFt?.[0]).toBeCloseTo(1.5 / 0.3048, 3)
    expect(w.canopyBulkDensityKgPerM3?.[0]).toBeCloseTo(0.2, 6)
    expect(Math.min(...crown.fire.fireType)).toBeGreaterThanOrEqual(2) // passive or active crown
    expect(crown.land.describe().canopy).toMatch(
      /^cc \(cover %.*cbd \(bulk density kg\/m3, version \w+\), crown fire$/,
    )
    // Without the bulk density the canopy only shelters the wind: a surface fire, shorter flames.
    const surface = await burn(false)
    expect(new Set(surface.fire.fireType)).toEqual(new Set([1]))
    expect(surface.fire.flameLengthFt[0]!).toBeLessThan(crown.fire.flameLengthFt[0]!)
    expect(surface.land.describe().canopy).toMatch(/wind shelter only$/)
    // The foliar moisture reaches the core with the hour's wind: wetter foliage needs more to crown.
    const wet = await burn(true, 300)
    expect(wet.wind.foliarMoisturePercent).toBe(300)
    expect(crown.wind.foliarMoisturePercent).toBeUndefined()
    expect(wet.fire.firelineIntensityBtuPerFtPerS[0]!).toBeLessThanOrEqual(
      crown.fire.firelineIntensityBtuPerFtPerS[0]!,
    )
    expect(new Set(wet.fire.fireType)).toEqual(new Set([1]))
  })
})
