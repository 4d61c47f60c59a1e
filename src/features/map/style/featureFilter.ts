import type { FeatureCondition } from '../../../shared/config'

/** Feature attributes as read from a vector tile. */
export type FeatureProps = Readonly<Record<string, unknown>>

/** Whether a feature's attribute satisfies a config condition `{ field, op, value }` (eq, ne, gt, gte, lt, lte). */
export function matchesFilter(props: FeatureProps, filter: FeatureCondition): boolean {
  const actual = props[filter.field]
  if (actual === undefined || actual === null) return false
  const expected = filter.value
  const equal = actual === expected || String(actual) === String(expected)
  const a = Number(actual)
  const b = Number(expected)
  const numeric = Number.isFinite(a) && Number.isFinite(b)
  switch (filter.op) {
    case 'eq':
      return equal
    case 'ne':
      return !equal
    case 'gt':
      return numeric && a > b
    case 'gte':
      return numeric && a >= b
    case 'lt':
      return numeric && a < b
    case 'lte':
      return numeric && a <= b
    default: {
      const unhandled: never = filter.op
      throw new Error(`Unhandled filter operator '${String(unhandled)}'`)
    }
  }
}

/** True when the feature matches any of the filters (an empty list matches everything). */
export function matchesAny(props: FeatureProps, filters: readonly FeatureCondition[]): boolean {
  return filters.length === 0 || filters.some((f) => matchesFilter(props, f))
}
