import type { AlertCondition, AlertRuleSide } from '../../shared/config'

export type Properties = Readonly<Record<string, string | number | null>>

const HOUR_MS = 3_600_000

/**
 * One attribute condition. Numbers compare numerically (eq, neq, gt, gte, lt, lte); strings
 * (and dates, stored as ISO strings) compare case-insensitively (eq, neq, contains). A missing
 * value, or a value of the other kind, fails every condition — including neq.
 */
export function passesCondition(properties: Properties, c: AlertCondition): boolean {
  const v = properties[c.field]
  if (typeof v === 'number' && typeof c.value === 'number') {
    switch (c.op) {
      case 'eq':
        return v === c.value
      case 'neq':
        return v !== c.value
      case 'gt':
        return v > c.value
      case 'gte':
        return v >= c.value
      case 'lt':
        return v < c.value
      case 'lte':
        return v <= c.value
      case 'contains':
        return false
    }
  }
  if (typeof v === 'string' && typeof c.value === 'string') {
    const a = v.toLowerCase()
    const b = c.value.toLowerCase()
    switch (c.op) {
      case 'eq':
        return a === b
      case 'neq':
        return a !== b
      case 'contains':
        return a.includes(b)
      default:
        return false
    }
  }
  return false
}

/** The feature's time (ms) from the side's `time` field, or null when it has none or it is not a date. */
export function featureTime(properties: Properties, field: string | undefined): number | null {
  if (field === undefined) return null
  const v = properties[field]
  if (typeof v !== 'string' && typeof v !== 'number') return null
  const t = typeof v === 'number' ? v : Date.parse(v)
  return Number.isFinite(t) ? t : null
}

/**
 * Whether a feature takes part on this side of a rule: every `where` condition holds and, with
 * `maxAgeHours`, its time is at most that many hours before `now` (a feature without a time
 * fails; a time after `now` counts as age 0).
 */
export function passesSide(properties: Properties, side: AlertRuleSide, now: number): boolean {
  for (const c of side.where ?? []) if (!passesCondition(properties, c)) return false
  if (side.maxAgeHours !== undefined) {
    const t = featureTime(properties, side.time)
    if (t === null || now - t > side.maxAgeHours * HOUR_MS) return false
  }
  return true
}
