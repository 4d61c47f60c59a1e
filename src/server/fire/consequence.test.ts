import { describe, expect, it } from 'vitest'
import type { GridRaster } from '../grids/gridRaster'
import {
  circuitSummary,
  countInside,
  distanceM,
  ignitionPoints,
  indexAssets,
  percentile90,
  runIgnitions,
  type IgnitionResult,
} from './consequence'
import { DEFAULT_MOISTURE, fireLandscape, type FireLandscapeData } from './landscape'
import type { SimulationResult } from './simulate'

const RAD = Math.PI / 180
/** Metres per degree of latitude on the haversine sphere. */
const M_PER_DEG_LAT = 6_371_008.8 * RAD

describe('ignitionPoints', () => {
  it('places a point every 500 m along a line from its first vertex, and one at its last vertex', () => {
    // A 1,200 m line due north, in two segments (700 m + 500 m).
    const lat0 = 34
    const north = (m: number) => lat0 + m / M_PER_DEG_LAT
    const points = ignitionPoints(
      [
        {
          circuit: 'C1',
          lineId: 'L1',
          coordinates: [
            [-107, lat0],
            [-107, north(700)],
            [-107, north(1200)],
          ],
        },
      ],
      500,
    )
    expect(points.map((p) => p.ignitionId)).toEqual(['L1:0', 'L1:1', 'L1:2', 'L1:3'])
    expect(points.every((p) => p.circuit === 'C1' && p.lineId === 'L1')).toBe(true)
    const along = points.map((p) => distanceM([-107, lat0], [p.lon, p.lat]))
    expect(along[0]).toBeCloseTo(0, 6)
    expect(along[1]).toBeCloseTo(500, 0)
    expect(along[2]).toBeCloseTo(1000, 0)
    expect(along[3]).toBeCloseTo(1200, 0)
  })

  it('does not repeat the end when it falls on the spacing, and walks each part of a multi-line', () => {
    const east = (m: number) => -107 + m / (M_PER_DEG_LAT * Math.cos(34 * RAD))
    const exact = ignitionPoints(
      [
        {
          circuit: 'C',
          lineId: 'X',
          coordinates: [
            [-107, 34],
            [east(1000.0001), 34],
          ],
        },
      ],
      500,
    )
    expect(exact).toHaveLength(3)
    const multi = ignitionPoints(
      [
        {
          circuit: 'C',
          lineId: 'M',
          coordinates: [
            [
              [-107, 34],
              [east(600), 34],
            ],
            [
              [-107, 35],
              [east(200), 35],
            ],
          ],
        },
      ],
      500,
    )
    // 0, 500, 600 on the first part; 0, 200 on the second.
    expect(multi).toHaveLength(5)
    expect(multi[3]!.lat).toBe(35)
  })
})

describe('circuitSummary', () => {
  it('gives each circuit the maximum and the 90th percentile (nearest rank) of every measure', () => {
    const result = (circuit: string, k: number): IgnitionResult => ({
      circuit,
      ignitionId: `${circuit}:${k}`,
      lineId: circuit,
      lon: 0,
      lat: 0,
      burnedAcres: k * 10,
      buildings: k,
      population: 100 - k,
      criticalFacilities: k % 2,
      ignited: true,
      truncated: false,
    })
    const results = [
      ...Array.from({ length: 10 }, (_, i) => result('A', i + 1)),
      result('B', 7),
      result('B', 3),
    ]
    const [a, b] = circuitSummary(results)
    expect(a!.circuit).toBe('A')
    expect(a!.ignitions).toBe(10)
    expect(a!.max).toEqual({ burnedAcres: 100, buildings: 10, population: 99, criticalFacilities: 1 })
    // 10 values 1..10: the 90th percentile by nearest rank is the 9th.
    expect(a!.p90).toEqual({ burnedAcres: 90, buildings: 9, population: 98, criticalFacilities: 1 })
    expect(b!.max.buildings).toBe(7)
    expect(b!.p90.buildings).toBe(7)
    expect(percentile90([])).toBe(0)
    expect(percentile90([5])).toBe(5)
    expect(percentile90(Array.from({ length: 20 }, (_, i) => i + 1))).toBe(18)
  })
})

describe('countInside', () => {
  it('counts the buildings, facilities and people on the cells a fire burned, and nothing outside', () => {
    // A 10 × 10 window of 100 m cells; the fire burned the 4 × 3 block of columns 2–5, rows 3–5.
    const grid = {
      width: 10,
      height: 10,
      cellSizeM: 100,
      dLon: 0.001,
      dLat: 0.001,
      west: -107,
      north: 34,
      geoTransform: [-107, 0.001, 0, 34, 0, -0.001] as const,
    }
    const arrival = new Float32Array(100).fill(NaN)
    for (let r = 3; r <= 5; r++) for (let c = 2; c <= 5; c++) arrival[r * 10 + c] = 30
    const fire = {
      grid,
      arrivalMinutes: arrival,
      burnedAcres: 12 * 2.47105,
      cellSizeM: 100,
    } as SimulationResult
    const at = (c: number, r: number) => [-107 + (c + 0.5) * 0.001, 34 - (r + 0.5) * 0.001]
    const assets = indexAssets({
      // Inside: (2,3), (5,5), (3,4) twice. Outside: (1,3), (6,5), (3,6), (3,2).
      buildings: [
        ...at(2, 3),
        ...at(5, 5),
        ...at(3, 4),
        ...at(3, 4),
        ...at(1, 3),
        ...at(6, 5),
        ...at(3, 6),
        ...at(3, 2),
      ],
      criticalFacilities: [...at(4, 4), ...at(9, 9)],
      // 500 people per km² everywhere: 12 cells of 0.01 km² hold 60.
      population: {
        nx: 2,
        ny: 2,
        west: -107.01,
        south: 33.98,
        east: -106.98,
        north: 34.01,
        data: new Float32Array(4).fill(500),
      } as GridRaster,
    })
    expect(countInside(fire, assets)).toEqual({
      burnedAcres: 12 * 2.47105,
      buildings: 4,
      population: 60,
      criticalFacilities: 1,
    })
  })
})

describe('runIgnitions', () => {
  it('spreads a fire from each ignition and counts what lies inside, none on bare ground', () => {
    const ext = { west: -107.2, south: 33.8, east: -106.8, north: 34.2 }
    const flat = (v: number): GridRaster => ({ nx: 2, ny: 1, ...ext, data: Float32Array.from([v, 99]) })
    const p = { id: 'x', version: 'v', source: 'test' }
    // Grass (GR2) west of −107, bare ground (NB9) east; 10 mph from the west.
    const data: FireLandscapeData = {
      fuel: flat(102),
      elevation: { ...flat(1500), data: Float32Array.from([1500, 1500]) },
      windU: [{ ...flat(10), data: Float32Array.from([10, 10]) }],
      windV: [{ ...flat(0), data: Float32Array.from([0, 0]) }],
      windTo20ftFactor: 1,
      moisture: DEFAULT_MOISTURE,
      provenance: { fuel: p, terrain: [p], wind: [p, p], canopy: [] },
    }
    const land = fireLandscape(data)
    const results = runIgnitions(
      land,
      [
        { ignitionId: 'L:0', circuit: 'C', lineId: 'L', lon: -107.1, lat: 34 },
        { ignitionId: 'L:1', circuit: 'C', lineId: 'L', lon: -106.9, lat: 34 },
      ],
      0,
      2,
      // A building 300 m downwind of the first ignition, one 3 km upwind.
      { buildings: [-107.1 + 300 / 92_000, 34, -107.1 - 3000 / 92_000, 34], criticalFacilities: [] },
      { cellSizeM: 30 },
    )
    expect(results[0]!.ignited).toBe(true)
    expect(results[0]!.burnedAcres).toBeGreaterThan(10)
    expect(results[0]!.buildings).toBe(1)
    expect(results[1]).toMatchObject({ ignited: false, burnedAcres: 0, buildings: 0 })
  })
})
