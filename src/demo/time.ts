import { zonedInstant } from '../shared/time/zonedInstant'

export { zonedInstant }

export const HOUR = 3_600_000

/** ISO 8601 without milliseconds. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
