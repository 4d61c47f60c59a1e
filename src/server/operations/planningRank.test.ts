import { describe, expect, it } from 'vitest'
import { rankExceedances, type PlanningCircuit } from './planningRank'

const circuit = (
  id: number,
  key: string,
  threshold: number | null,
  customers: number | null,
): PlanningCircuit => ({
  id,
  key,
  threshold,
  customers,
  bbox: null,
  parts: [],
})

const circuits = [
  circuit(1, 'A', 40, 100),
  circuit(2, 'B', 45, 500),
  circuit(3, 'C', 50, 900),
  circuit(4, 'D', 40, 300),
  circuit(5, 'E', null, 50),
]

describe('rankExceedances', () => {
  it('keeps circuits strictly over threshold, by exceedance then customers', () => {
    const ranked = rankExceedances(circuits, [48, 50, 50, 48, 99], new Map())
    expect(ranked.map((r) => r.key)).toEqual(['D', 'A', 'B'])
    expect(ranked.map((r) => r.exceedance)).toEqual([8, 8, 5])
    expect(ranked[0]).toMatchObject({ gust: 48, threshold: 40, storedThreshold: 40, overridden: false })
  })

  it('leaves out circuits with no forecast (NaN) or no threshold', () => {
    const ranked = rankExceedances(circuits, [Number.NaN, 60, 60, 60, 60], new Map())
    expect(ranked.map((r) => r.key)).toEqual(['D', 'B', 'C'])
  })

  it('what-if thresholds re-rank without touching the circuits', () => {
    const before = structuredClone(circuits)
    const overrides = new Map([
      ['C', 20],
      ['D', 60],
      ['E', 10],
    ])
    const ranked = rankExceedances(circuits, [48, 50, 50, 48, 30], overrides)
    expect(ranked.map((r) => r.key)).toEqual(['C', 'E', 'A', 'B'])
    expect(ranked[0]).toMatchObject({ threshold: 20, storedThreshold: 50, overridden: true, exceedance: 30 })
    expect(ranked[1]).toMatchObject({ threshold: 10, storedThreshold: null, overridden: true })
    expect(circuits).toEqual(before)
  })

  it('with includeBelow keeps the circuits under threshold after those over, flagged', () => {
    const ranked = rankExceedances(circuits, [48, 50, 50, 48, 99], new Map(), true)
    expect(ranked.map((r) => [r.key, r.exceeds])).toEqual([
      ['D', true],
      ['A', true],
      ['B', true],
      ['C', false],
    ])
    expect(ranked[3]?.exceedance).toBe(0)
  })

  it('rounds gusts to 2 decimals before comparing (a gust shown equal to the threshold is not over it)', () => {
    expect(rankExceedances([circuit(1, 'A', 40, 1)], [40.001], new Map())).toEqual([])
    expect(rankExceedances([circuit(1, 'A', 40, 1)], [40.006], new Map())[0]?.gust).toBe(40.01)
  })
})
