import { parseDecimal } from '../http/strictNumbers'

/** The parsed query of GET /api/planning, or the parameter that is wrong. */
export type PlanningQuery =
  | { ok: true; hour: number | undefined; overrides: Map<string, number>; below: boolean }
  | { ok: false; parameter: string; message: string }

/** Prefix of the what-if threshold parameters: `threshold.<circuit key>=<mph>`. */
export const THRESHOLD_PREFIX = 'threshold.'
/** Largest what-if threshold accepted (mph). */
export const MAX_THRESHOLD = 500

/**
 * Validates `hour` (integer 0..hours-1, optional), `below` (true: list the circuits under their
 * threshold too; default false) and `threshold.<key>` (a known circuit key, a
 * number 0..MAX_THRESHOLD mph); any other parameter is rejected.
 */
export function parsePlanningQuery(
  query: Readonly<Record<string, unknown>>,
  hours: number,
  keys: ReadonlySet<string>,
): PlanningQuery {
  let hour: number | undefined
  const overrides = new Map<string, number>()
  let below = false
  for (const [name, raw] of Object.entries(query)) {
    if (typeof raw !== 'string') return { ok: false, parameter: name, message: `${name} must be given once` }
    if (name === 'hour') {
      const n = parseDecimal(raw, { integer: true, minimum: 0, maximum: hours - 1 })
      if (n === null) {
        return { ok: false, parameter: 'hour', message: `hour must be an integer from 0 to ${hours - 1}` }
      }
      hour = n
    } else if (name === 'below') {
      if (raw !== 'true' && raw !== 'false')
        return { ok: false, parameter: 'below', message: 'below must be true or false' }
      below = raw === 'true'
    } else if (name.startsWith(THRESHOLD_PREFIX)) {
      const key = name.slice(THRESHOLD_PREFIX.length)
      if (!keys.has(key))
        return { ok: false, parameter: name, message: `no circuit '${key}' in the planning dataset` }
      // Plain decimal only (no spaces, `+`, hex or Infinity: Number() would take them).
      const value = parseDecimal(raw, { integer: false, minimum: 0, maximum: MAX_THRESHOLD })
      if (value === null) {
        return {
          ok: false,
          parameter: name,
          message: `${name} must be a number of mph from 0 to ${MAX_THRESHOLD}`,
        }
      }
      overrides.set(key, value)
    } else {
      return { ok: false, parameter: name, message: `unknown parameter '${name}'` }
    }
  }
  return { ok: true, hour, overrides, below }
}
