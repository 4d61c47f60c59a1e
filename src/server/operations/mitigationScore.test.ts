import { describe, expect, it } from 'vitest'
import { normaliseCircuits, rankCircuits, RISK_ID, type CircuitFactors } from './mitigationScore'

const BOX: [number, number, number, number] = [0, 0, 1, 1]
const FACTORS = ['a', 'b']

function circuit(
  id: number,
  key: string,
  risk: number | null,
  a: number | null,
  b: number | null,
): CircuitFactors {
  return { id, key, bbox: BOX, risk, factors: { a, b } }
}

describe('normaliseCircuits', () => {
  it('scales the risk and each factor by its maximum across the circuits', () => {
    const set = normaliseCircuits([circuit(1, 'x', 0.5, 10, 2), circuit(2, 'y', 1, 40, 0)], FACTORS)
    expect(set.maxima).toEqual({ risk: 1, factors: { a: 40, b: 2 } })
    const [x, y] = set.circuits
    expect(x?.riskNormalised).toBe(0.5)
    expect(x?.factorsNormalised).toEqual({ a: 0.25, b: 1 })
    expect(y?.factorsNormalised).toEqual({ a: 1, b: 0 })
  })

  it('counts missing values as 0 and flags them', () => {
    const set = normaliseCircuits(
      [circuit(1, 'x', null, 10, Number.NaN), circuit(2, 'y', 0.8, null, 4)],
      FACTORS,
    )
    expect(set.circuits[0]?.missing).toEqual([RISK_ID, 'b'])
    expect(set.circuits[0]?.riskNormalised).toBe(0)
    expect(set.circuits[0]?.factorsNormalised.b).toBe(0)
    expect(set.circuits[1]?.missing).toEqual(['a'])
    expect(set.circuits[1]?.factorsNormalised).toEqual({ a: 0, b: 1 })
  })

  it('gives 0 to every circuit when a factor is 0 everywhere (no division by zero) and clamps negatives', () => {
    const set = normaliseCircuits([circuit(1, 'x', 1, 0, -3), circuit(2, 'y', 1, 0, 6)], FACTORS)
    expect(set.maxima.factors.a).toBe(0)
    expect(set.circuits.map((c) => c.factorsNormalised)).toEqual([
      { a: 0, b: 0 },
      { a: 0, b: 1 },
    ])
  })
})

describe('rankCircuits', () => {
  const set = normaliseCircuits(
    [circuit(1, 'c1', 1, 10, 0), circuit(2, 'c2', 1, 0, 10), circuit(3, 'c3', 0.5, 10, 10)],
    FACTORS,
  )

  it('score = risk_n × Σ wᵢ·factorᵢ_n / Σ wᵢ; contributions add up to the score', () => {
    const rows = rankCircuits(set, { a: 3, b: 1 })
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r]))
    expect(byKey.c1?.score).toBeCloseTo(0.75)
    expect(byKey.c2?.score).toBeCloseTo(0.25)
    expect(byKey.c3?.score).toBeCloseTo(0.5)
    expect(byKey.c3?.factors.a?.contribution).toBeCloseTo(0.375)
    expect(byKey.c3?.factors.b?.contribution).toBeCloseTo(0.125)
    for (const r of rows) {
      const sum = Object.values(r.factors).reduce((s, f) => s + f.contribution, 0)
      expect(sum).toBeCloseTo(r.score, 12)
    }
    expect(rows.map((r) => [r.rank, r.key])).toEqual([
      [1, 'c1'],
      [2, 'c3'],
      [3, 'c2'],
    ])
  })

  it('the weights change the order: weighting b puts c2 first', () => {
    expect(rankCircuits(set, { a: 1, b: 3 }).map((r) => r.key)).toEqual(['c2', 'c3', 'c1'])
  })

  it('only the weights’ ratios matter', () => {
    const scores = (w: Record<string, number>) => rankCircuits(set, w).map((r) => r.score)
    expect(scores({ a: 3, b: 1 })).toEqual(scores({ a: 0.75, b: 0.25 }).map((s) => expect.closeTo(s, 12)))
  })

  it('breaks ties by key whatever the input order, with ranks 1..n', () => {
    const tied = normaliseCircuits(
      [circuit(9, 'b', 1, 5, 5), circuit(4, 'c', 1, 5, 5), circuit(7, 'a', 1, 5, 5)],
      FACTORS,
    )
    const rows = rankCircuits(tied, { a: 1, b: 1 })
    expect(rows.map((r) => [r.rank, r.key, r.id])).toEqual([
      [1, 'a', 7],
      [2, 'b', 9],
      [3, 'c', 4],
    ])
  })

  it('reports raw values (null when missing) beside the normalised ones', () => {
    const rows = rankCircuits(normaliseCircuits([circuit(1, 'x', 1, null, 4)], FACTORS), { a: 1, b: 1 })
    expect(rows[0]?.factors.a).toEqual({ value: null, normalised: 0, contribution: 0 })
    expect(rows[0]?.factors.b).toEqual({ value: 4, normalised: 1, contribution: 0.5 })
    expect(rows[0]?.missing).toEqual(['a'])
  })

  it('refuses weights that add up to 0', () => {
    expect(() => rankCircuits(set, { a: 0, b: 0 })).toThrow(RangeError)
  })
})
