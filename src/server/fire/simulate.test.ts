import { describe, expect, it } from 'vitest'
import type { MultiPolygon } from 'geojson'
import { findFuelModel } from '../../fire/fuelModels'
import { surfaceFire } from '../../fire/surfaceFire'
import type { GridRaster } from '../grids/gridRaster'
import { DEFAULT_MOISTURE, FireLandscapeError, fireLandscape, type FireLandscapeData } from './landscape'
import { BlockCache, simulateFire } from './simulate'

const M_PER_FT = 0.3048
const EXTENT = { west: -107.5, south: 33.5, east: -106.5, north: 34.5 }
const flat = (value: number, nx = 4, ny = 4): GridRaster => ({
  nx,
  ny,
  ...EXTENT,
  data: new Float32Array(nx * ny).fill(value),
})

/** Uniform GS2 on flat ground, wind of `mph` (10 m) towards the east then (hour 3 on) the north. */
function uniform(mph: number, turn = false, fuel = 122): FireLandscapeData {
  const p = { id: 'x', version: 'v', source: 'test' }
  return {
    fuel: flat(fuel),
    elevation: flat(1500),
    windU: [0, 1, 2, 3, 4, 5].map((h) => flat(turn && h >= 3 ? 0 : mph)),
    windV: [0, 1, 2, 3, 4, 5].map((h) => flat(turn && h >= 3 ? mph : 0)),
    windTo20ftFactor: 1,
    moisture: DEFAULT_MOISTURE,
    windowStart: '2026-07-01T18:00:00.000Z',
    provenance: { fuel: p, terrain: [p], wind: [p, p], canopy: [] },
  }
}

const ringArea = (ring: number[][], lat0: number) => {
  // Planar area in m² (equirectangular at lat0).
  const kx = 111_320 * Math.cos((lat0 * Math.PI) / 180)
  const ky = 110_574
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    a += ring[j]![0]! * kx * (ring[i]![1]! * ky) - ring[i]![0]! * kx * (ring[j]![1]! * ky)
  return a / 2
}
const polygonAreaM2 = (g: MultiPolygon, lat0: number) =>
  Math.abs(
    g.coordinates.reduce(
      (s, poly) => s + poly.reduce((t, ring, k) => t + (k === 0 ? 1 : 1) * ringArea(ring, lat0), 0),
      0,
    ),
  )

describe('simulateFire on a uniform landscape with constant wind', () => {
  for (const mph of [6, 11] as const) {
    it(`burned area after 1–6 h is within 3 % of the ellipse of the head, backing and flanking rates (${mph} mph)`, () => {
      const fire = surfaceFire({
        fuelModel: findFuelModel(122)!,
        moisture: DEFAULT_MOISTURE,
        windSpeedMph: mph,
        windHeight: '20ft',
        windFromDeg: 270,
        slopePercent: 0,
        aspectDeg: 0,
      })
      const [head, back, flank] = [fire.rosFtPerMin, fire.backingRosFtPerMin, fire.flankingRosFtPerMin].map(
        (r) => r * M_PER_FT,
      ) as [number, number, number]
      // Cells small enough that the first hour's ellipse is 20 cells long and 16 wide.
      const cellSizeM = Math.max(10, Math.round(Math.min((head * 60) / 20, (flank * 60 * 2) / 16)))
      const result = simulateFire(fireLandscape(uniform(mph)), {
        ignitions: [[-107, 34]],
        start: 0,
        hours: 6,
        cellSizeM,
      })
      expect(result.ignited).toBe(true)
      expect(result.truncated).toBe(false)
      for (let h = 1; h <= 6; h++) {
        const t = h * 60
        const ellipseAcres = (Math.PI * (((head + back) * t) / 2) * (flank * t)) / 4046.8564224
        const ratio = result.burnedAcresByHour[h - 1]! / ellipseAcres
        expect(ratio, `hour ${h}`).toBeGreaterThan(0.97)
        expect(ratio, `hour ${h}`).toBeLessThan(1.03)
      }
      expect(result.burnedAcres).toBe(result.burnedAcresByHour[5])
    })
  }

  it('draws hourly isochrones in lon/lat, nested, each about the area burned by that hour', () => {
    const result = simulateFire(fireLandscape(uniform(12, true)), {
      ignitions: [[-107, 34]],
      start: 0,
      hours: 6,
      cellSizeM: 60,
    })
    const f = result.isochrones.features
    expect(f.map((x) => x.properties?.hour)).toEqual([1, 2, 3, 4, 5, 6])
    expect(f[0]!.properties?.time).toBe('2026-07-01T19:00:00.000Z')
    let previous = 0
    for (const [k, feature] of f.entries()) {
      const area = polygonAreaM2(feature.geometry, 34)
      expect(area).toBeGreaterThan(previous)
      previous = area
      // The contour runs between cell centres; the first hour's fire is only ~18 cells, so ±10 % there.
      const burnedM2 = result.burnedAcresByHour[k]! * 4046.8564224
      const tolerance = k === 0 ? 0.1 : 0.05
      expect(area / burnedM2, `hour ${k + 1}`).toBeGreaterThan(1 - tolerance)
      expect(area / burnedM2, `hour ${k + 1}`).toBeLessThan(1 + tolerance)
      // Every vertex lies in lon/lat near the ignition.
      for (const poly of feature.geometry.coordinates)
        for (const ring of poly)
          for (const [lon, lat] of ring) {
            expect(Math.abs(lon! + 107)).toBeLessThan(0.3)
            expect(Math.abs(lat! - 34)).toBeLessThan(0.3)
          }
    }
    expect(result.perimeter).toEqual(f[5]!.geometry)
    // The wind turned from west to south at hour 3: the fire ran east, then north.
    const arrival = result.arrivalMinutes
    const { width, west, north, dLon, dLat } = result.grid
    let east = -Infinity
    let northMost = -Infinity
    arrival.forEach((t, i) => {
      if (!(t <= 180)) return
      east = Math.max(east, west + ((i % width) + 0.5) * dLon)
    })
    arrival.forEach((t, i) => {
      if (!(t <= 360)) return
      northMost = Math.max(northMost, north - (Math.floor(i / width) + 0.5) * dLat)
    })
    expect(east - -107).toBeGreaterThan(northMost > 34 ? 0 : Infinity)
    expect(northMost - 34).toBeGreaterThan(0.005)
  })

  it('grows its window when the fire reaches the edge, shares fire behaviour through a BlockCache', () => {
    const cache = new BlockCache()
    const small = simulateFire(
      fireLandscape(uniform(15)),
      { ignitions: [[-107, 34]], start: 0, hours: 6, cellSizeM: 60, windowHalfSizeM: 1000 },
      cache,
    )
    const big = simulateFire(fireLandscape(uniform(15)), {
      ignitions: [[-107, 34]],
      start: 0,
      hours: 6,
      cellSizeM: 60,
      windowHalfSizeM: 30_000,
    })
    expect(big.grid.width).toBeGreaterThan(small.grid.width)
    expect(small.truncated).toBe(false)
    expect(small.burnedAcres).toBeCloseTo(big.burnedAcres, 6)
    expect(cache.size).toBeGreaterThan(0)
  })

  it('does not ignite on fuel that cannot burn, and refuses a point outside the landscape', () => {
    const bare = simulateFire(fireLandscape(uniform(15, false, 99)), {
      ignitions: [[-107, 34]],
      start: 0,
      hours: 2,
    })
    expect(bare.ignited).toBe(false)
    expect(bare.burnedAcres).toBe(0)
    expect(bare.isochrones.features).toEqual([])
    expect(() =>
      simulateFire(fireLandscape(uniform(15)), { ignitions: [[-100, 34]], start: 0, hours: 2 }),
    ).toThrow(FireLandscapeError)
  })
})
