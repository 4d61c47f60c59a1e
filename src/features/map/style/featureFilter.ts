import type { FeatureFilter } from '../catalog/catalogTypes'

/** Feature attributes as read from a vector tile. */
export type FeatureProps = Readonly<Record<string, unknown>>

/** Whether a feature's attribute satisfies a config filter `{ field, op, value }` (eq, neq, gt, gte, lt, lte). */
export function matchesFilter(props: FeatureProps, filter: FeatureFilter): boolean {
  const actual = props[filter.field]
  if (actual === undefined || actual === null) return false
  const expected = filter.value
  if (filter.op === 'eq') return actual === expected || String(actual) === String(expected)
  if (filter.op === 'neq') return !(actual === expected || String(actual) === String(expected))
  const a = Number(actual)
  const b = Number(expected)
  if (!Number.isFinite(a) || !Number.isFinite(b)) return false
  switch (filter.op) {
    case 'gt':
      return a > b
    case 'gte':
      return a >= b
    case 'lt':
      return a < b
    case 'lte':
      return a <= b
    default:
      throw new Error(`Unknown filter operator '${filter.op}' in config`)
  }
}

/** True when the feature matches any of the filters (an empty list matches everything). */
export function matchesAny(props: FeatureProps, filters: readonly FeatureFilter[]): boolean {
  return filters.length === 0 || filters.some((f) => matchesFilter(props, f))
}
