import { describe, expect, it } from 'vitest'
import type { StoredIgnitionResult } from '../../store/fireRunStore'
import { circuitSummary } from '../consequence'
import { consequenceScore, ignitionRasters, provenanceLine, scoreOf, summariseRun } from './fireRunOutputs'

// The outputs of config/fire.yaml from a run's per-ignition results: per-circuit scores by measure
// and statistic, and the rasters (hourly from the latest start, or each cell's worst start).

const SHAPE = { nx: 4, ny: 2, west: 0, east: 4, south: 0, north: 2 }
const result = (
  startHour: number,
  circuit: string,
  n: number,
  lon: number,
  lat: number,
  buildings: number,
  burnedAcres: number,
): StoredIgnitionResult => ({
  startHour,
  circuit,
  ignitionId: `lines/${circuit}:${n}`,
  lon,
  lat,
  buildings,
  burnedAcres,
  population: 0,
  criticalFacilities: 0,
})

const RESULTS = [
  result(0, 'A', 0, 0.5, 1.5, 10, 100),
  result(0, 'A', 1, 0.6, 1.4, 30, 50), // the same cell as the first: the highest counts
  result(0, 'B', 0, 3.5, 0.5, 200, 4000),
  result(3, 'A', 0, 0.5, 1.5, 60, 900),
  result(3, 'B', 0, 3.5, 0.5, 0, 10),
]

describe('the run outputs of config/fire.yaml', () => {
  it('scores a circuit by its measure and statistic, to 0.01 and at most 1', () => {
    const [a, b] = summariseRun(RESULTS)
    expect(a!.circuit).toBe('A')
    expect(consequenceScore(a!, { measure: 'buildings', statistic: 'max', scoreAt: 100 })).toBe(0.6)
    // P90 of A's buildings (10, 30, 60) by nearest rank is the 3rd: 60; of acres (50, 100, 900): 900.
    expect(consequenceScore(a!, { measure: 'acres', statistic: 'p90', scoreAt: 1000 })).toBe(0.9)
    expect(consequenceScore(b!, { measure: 'buildings', statistic: 'max', scoreAt: 100 })).toBe(1)
    expect(scoreOf(1, 3)).toBe(0.33)
    expect(summariseRun(RESULTS)).toEqual(
      circuitSummary(
        RESULTS.map((r) => ({ ...r, lineId: `lines/${r.circuit}`, ignited: true, truncated: false })),
      ),
    )
  })

  it('an hourly raster takes each hour from the latest start at or before it', () => {
    const bands = ignitionRasters(RESULTS, [0, 3], 6, SHAPE, (r) => r.buildings)
    expect(bands).toHaveLength(6)
    const cell = (h: number, i: number, j: number) => bands[h]!.data[j * SHAPE.nx + i]
    for (const h of [0, 1, 2]) {
      expect(cell(h, 0, 0)).toBe(30)
      expect(cell(h, 3, 1)).toBe(200)
    }
    for (const h of [3, 4, 5]) {
      expect(cell(h, 0, 0)).toBe(60)
      expect(cell(h, 3, 1)).toBe(0)
    }
    expect(Number.isNaN(cell(0, 1, 0)!)).toBe(true) // no ignition: no data
  })

  it('a single-band raster holds each cell’s worst start', () => {
    const [band, ...more] = ignitionRasters(
      RESULTS,
      [0, 3],
      6,
      SHAPE,
      (r) => scoreOf(r.burnedAcres, 1000),
      false,
    )
    expect(more).toHaveLength(0)
    expect(band!.data[0]).toBeCloseTo(0.9, 6)
    expect(band!.data[SHAPE.nx + 3]).toBe(1)
    expect(Array.from(band!.data).filter((v) => !Number.isNaN(v))).toHaveLength(2)
  })

  it('says which run, wind run and fuels made a value', () => {
    const line = provenanceLine(
      {
        id: 7,
        referenceTime: '2026-11-27T13:00:00.000Z',
        provenance: { fuels: 'fuel_model (synthetic, version ab12)' },
      } as unknown as Parameters<typeof provenanceLine>[0],
      new Date('2026-11-27T21:05:00Z'),
      'America/Denver',
    )
    expect(line).toBe(
      'computed 14:05 from wind run 2026-11-27T13:00Z, fuels fuel_model (synthetic, version ab12) (run 7)',
    )
  })
})
