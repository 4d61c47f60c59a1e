import type { MitigationFactor } from '../../shared/config'
import { parseDecimal } from '../http/strictNumbers'

/** The query parameter prefix of a weight override: `weight.<factorId>=<number>`. */
export const WEIGHT_PREFIX = 'weight.'

export type WeightsResult =
  { ok: true; weights: Record<string, number> } | { ok: false; parameter: string; message: string }

/** The largest weight accepted (weights are relative: the ranking divides by their sum). */
export const MAX_WEIGHT = 1_000_000

function fail(parameter: string, message: string): WeightsResult {
  return { ok: false, parameter, message }
}

/**
 * The weights of one request: each factor's default weight from config, overridden by
 * `weight.<factorId>` query parameters. Unknown parameters, unknown factor ids, repeated,
 * values not in plain decimal (spaces, `+`, hex, Infinity), negative or above MAX_WEIGHT, and weights
 * that are all 0 are refused (naming the parameter).
 */
export function parseWeights(
  query: Readonly<Record<string, unknown>>,
  factors: readonly MitigationFactor[],
): WeightsResult {
  const weights: Record<string, number> = {}
  for (const f of factors) weights[f.id] = f.weight
  for (const [name, raw] of Object.entries(query)) {
    if (!name.startsWith(WEIGHT_PREFIX)) {
      return fail(name, `unknown parameter ${name} (only ${WEIGHT_PREFIX}<factor> is accepted)`)
    }
    const id = name.slice(WEIGHT_PREFIX.length)
    if (!Object.hasOwn(weights, id)) {
      const known = factors.map((f) => f.id).join(', ')
      return fail(name, `unknown factor ${JSON.stringify(id)} (factors: ${known})`)
    }
    if (typeof raw !== 'string') return fail(name, `${name} must be given once`)
    // Plain decimal only: no spaces, `+`, hex or Infinity.
    const value = parseDecimal(raw, { integer: false })
    if (value === null) return fail(name, `${name} must be a number`)
    if (value < 0) return fail(name, `${name} must be 0 or more`)
    if (value > MAX_WEIGHT) return fail(name, `${name} must be at most ${MAX_WEIGHT}`)
    weights[id] = value
  }
  const total = Object.values(weights).reduce((s, w) => s + w, 0)
  if (total === 0) return fail('weight', 'at least one weight must be above 0')
  return { ok: true, weights }
}
