/** Offset (ms) of a time zone from UTC at an instant, via Intl (no tz database of our own). */
function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant))
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0)
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return asUtc - instant
}

/** The instant of local wall-clock `hour` on `date` (YYYY-MM-DD) in `timeZone`. */
export function zonedInstant(date: string, hour: number, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const guess = Date.UTC(y, m - 1, d, hour)
  return guess - zoneOffsetMs(guess - zoneOffsetMs(guess, timeZone), timeZone)
}

export const HOUR = 3_600_000

/** ISO 8601 without milliseconds. */
export function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
