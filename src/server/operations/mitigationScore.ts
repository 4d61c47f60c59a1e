import type { Bbox, FactorScore, MitigationRow } from '../../shared/operations/wireTypes'

export type { Bbox, FactorScore }
/** A ranked circuit as GET /api/mitigation answers it. */
export type RankedCircuit = MitigationRow

/** One circuit's raw inputs: the risk value and each consequence factor's value (null when missing). */
export interface CircuitFactors {
  id: number
  key: string
  bbox: Bbox
  risk: number | null
  factors: Readonly<Record<string, number | null>>
}

/** A circuit with every input scaled by its maximum across the circuits (0..1). */
export interface NormalisedCircuit extends CircuitFactors {
  riskNormalised: number
  factorsNormalised: Readonly<Record<string, number>>
  /** 'risk' and/or factor ids whose value was missing (counted as 0). */
  missing: readonly string[]
}

export interface NormalisedSet {
  circuits: readonly NormalisedCircuit[]
  /** The maxima the values were scaled by (0 when every value is 0 or missing). */
  maxima: { risk: number; factors: Readonly<Record<string, number>> }
}

/** The risk's name in `missing` lists. */
export const RISK_ID = 'risk'

const usable = (v: number | null): number | null => (v !== null && Number.isFinite(v) ? v : null)
/** Missing values count as 0; so do values below 0 (a scale of 0..max). */
const counted = (v: number | null): number => Math.max(usable(v) ?? 0, 0)

function maximum(values: readonly number[]): number {
  let max = 0
  for (const v of values) if (v > max) max = v
  return max
}

const scale = (v: number, max: number): number => (max > 0 ? v / max : 0)

/**
 * Scales the risk and each factor by its maximum across the circuits. Missing (null, non-finite)
 * values count as 0 and are listed in `missing`; negative values count as 0.
 */
export function normaliseCircuits(
  circuits: readonly CircuitFactors[],
  factorIds: readonly string[],
): NormalisedSet {
  const riskMax = maximum(circuits.map((c) => counted(c.risk)))
  const factorMax: Record<string, number> = {}
  for (const f of factorIds) factorMax[f] = maximum(circuits.map((c) => counted(c.factors[f] ?? null)))
  const normalised = circuits.map((c): NormalisedCircuit => {
    const missing: string[] = usable(c.risk) === null ? [RISK_ID] : []
    const factorsNormalised: Record<string, number> = {}
    for (const f of factorIds) {
      const v = c.factors[f] ?? null
      if (usable(v) === null) missing.push(f)
      factorsNormalised[f] = scale(counted(v), factorMax[f] ?? 0)
    }
    return { ...c, riskNormalised: scale(counted(c.risk), riskMax), factorsNormalised, missing }
  })
  return { circuits: normalised, maxima: { risk: riskMax, factors: factorMax } }
}

/** Orders by score (highest first), then key, then id: the same inputs always give the same ranks. */
export function compareRanked(a: RankedCircuit, b: RankedCircuit): number {
  if (a.score !== b.score) return b.score - a.score
  if (a.key !== b.key) return a.key < b.key ? -1 : 1
  return a.id - b.id
}

/**
 * score = risk_n × Σ wᵢ · factorᵢ_n / Σ wᵢ over the factors of `weights` (each weight ≥ 0, at
 * least one above 0). Ranks run 1..n in score order; ties are broken by key.
 */
export function rankCircuits(set: NormalisedSet, weights: Readonly<Record<string, number>>): RankedCircuit[] {
  const ids = Object.keys(weights)
  const total = ids.reduce((s, id) => s + (weights[id] ?? 0), 0)
  if (!(total > 0) || !Number.isFinite(total))
    throw new RangeError('the weights must add up to a finite number above 0')
  const rows = set.circuits.map((c): RankedCircuit => {
    const factors: Record<string, FactorScore> = {}
    let score = 0
    for (const id of ids) {
      const normalised = c.factorsNormalised[id] ?? 0
      const contribution = (c.riskNormalised * (weights[id] ?? 0) * normalised) / total
      factors[id] = { value: usable(c.factors[id] ?? null), normalised, contribution }
      score += contribution
    }
    const risk = { value: usable(c.risk), normalised: c.riskNormalised }
    return { id: c.id, key: c.key, bbox: c.bbox, rank: 0, score, risk, factors, missing: c.missing }
  })
  rows.sort(compareRanked)
  rows.forEach((r, i) => (r.rank = i + 1))
  return rows
}
