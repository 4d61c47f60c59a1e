import { describe, expect, it } from 'vitest'
import { fireBehaviourGrid, type FireWeather, type Landscape } from '../fireBehaviourGrid'
import { cellBurns, spreadOverLandscape } from './landscapeSpread'
import { minimumTravelTime } from './minimumTravelTime'
import { GS4_LOW_MOISTURE as moisture } from '../testing'

/** A mixed landscape: patches of grass, shrub and timber (with canopy), non-burnable lines, terrain. */
function mixed(width: number, height: number): Landscape {
  const n = width * height
  const fuels = [102, 122, 145, 165, 188, 102]
  const land = {
    width,
    height,
    fuelModel: new Int16Array(n),
    slopePercent: new Float32Array(n),
    aspectDeg: new Float32Array(n),
    missing: new Uint8Array(n),
    canopyCoverPercent: new Float32Array(n),
    canopyHeightFt: new Float32Array(n),
    canopyBaseHeightFt: new Float32Array(n),
    canopyBulkDensityKgPerM3: new Float32Array(n),
  }
  for (let row = 0; row < height; row++)
    for (let col = 0; col < width; col++) {
      const i = row * width + col
      const fuel = fuels[(Math.floor(col / 9) * 7 + Math.floor(row / 11) * 3) % fuels.length]!
      land.fuelModel[i] = col === 70 && row > 20 ? 91 : fuel
      land.slopePercent[i] = (col * 3 + row * 5) % 45
      land.aspectDeg[i] = (col * 11 + row * 7) % 360
      land.missing[i] = col === 5 && row === 5 ? 1 : 0
      if (fuel >= 160) {
        land.canopyCoverPercent[i] = 60
        land.canopyHeightFt[i] = 60
        land.canopyBaseHeightFt[i] = 3 + (row % 10)
        land.canopyBulkDensityKgPerM3[i] = 0.1 + (col % 5) * 0.05
      }
    }
  return land
}

describe('spreadOverLandscape: fire behaviour per block where the fire comes', () => {
  it('gives the arrival times of computing every cell first (hourly wind per cell, crown fire, barriers)', () => {
    const W = 150
    const H = 110
    const land = mixed(W, H)
    // Three hours: a constant wind, then wind grids that turn and vary per cell.
    const weather = (p: number): FireWeather => {
      const speed = Float64Array.from({ length: W * H }, (_, i) => 12 + ((i % W) % 7) + p)
      const from = Float64Array.from(
        { length: W * H },
        (_, i) => (200 + p * 40 + (Math.floor(i / W) % 9)) % 360,
      )
      return p === 0
        ? { moisture, windSpeedMph: 15, windFromDeg: 225, windHeight: '20ft' }
        : { moisture, windSpeedMph: speed, windFromDeg: from, windHeight: '20ft' }
    }
    const common = {
      width: W,
      height: H,
      cellWidthM: 30,
      cellHeightM: 30,
      ignitionCells: [55 * W + 60, 20 * W + 100],
      maxMinutes: 180,
      periods: 3,
    }
    const every = minimumTravelTime({
      ...common,
      ellipses: (p) => {
        const f = fireBehaviourGrid(land, weather(p))
        return {
          headRosMPerMin: Float32Array.from(f.rosFtPerMin, (v) => v * 0.3048),
          eccentricity: f.eccentricity,
          maxSpreadDirDeg: f.maxSpreadDirDeg,
        }
      },
    })
    const lazy = spreadOverLandscape({ ...common, landscape: land, weather })
    let burned = 0
    for (let i = 0; i < lazy.length; i++) {
      expect(lazy[i], `cell ${i}`).toBe(every[i])
      if (lazy[i]! < Infinity) burned++
    }
    // The fire spans several blocks of 32 × 32 cells.
    expect(burned).toBeGreaterThan(500)
    expect(burned).toBeLessThan(W * H)
  })

  it('reads the landscape only near the fire: a small fire in a large window leaves most cells unread', () => {
    const W = 640
    const H = 640
    const base = mixed(W, H)
    const read = new Uint8Array(W * H)
    // The fuel raster notes every cell the computation reads.
    const fuelModel = new Proxy(base.fuelModel, {
      get(target, key) {
        if (typeof key === 'string' && /^\d+$/.test(key)) read[Number(key)] = 1
        return Reflect.get(target, key) as unknown
      },
    })
    const land: Landscape = { ...base, fuelModel }
    const weather = (): FireWeather => ({ moisture, windSpeedMph: 10, windFromDeg: 270, windHeight: '20ft' })
    const ignition = 320 * W + 320
    expect(cellBurns(land, weather(), ignition)).toBe(true)
    const arrival = spreadOverLandscape({
      landscape: land,
      weather,
      periods: 1,
      cellWidthM: 30,
      cellHeightM: 30,
      ignitionCells: [ignition],
      maxMinutes: 60,
    })
    let burned = 0
    for (const t of arrival) if (t < Infinity) burned++
    expect(burned).toBeGreaterThan(20)
    let cellsRead = 0
    for (const r of read) cellsRead += r
    // 400 blocks of 32 × 32 in the window; a one-hour fire touches a handful.
    expect(cellsRead).toBeLessThan((W * H) / 20)
    expect(cellsRead).toBeGreaterThanOrEqual(burned)
  })

  it('cellBurns: a grass cell burns, a non-burnable or no-data cell does not', () => {
    const land = mixed(100, 60)
    const weather: FireWeather = { moisture, windSpeedMph: 10, windFromDeg: 0, windHeight: '20ft' }
    expect(cellBurns(land, weather, 30 * 100 + 70)).toBe(false) // the NB1 column
    expect(cellBurns(land, weather, 5 * 100 + 5)).toBe(false) // no data
    expect(land.fuelModel[0]).toBe(102)
    expect(cellBurns(land, weather, 0)).toBe(true)
  })
})
