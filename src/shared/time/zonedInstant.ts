const formats = new Map<string, Intl.DateTimeFormat>()

function formatFor(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone)
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formats.set(timeZone, f)
  }
  return f
}

/** The wall-clock parts of an instant in a time zone. */
export function zonedParts(
  at: Date,
  timeZone: string,
): { y: number; m: number; d: number; h: number; min: number } {
  const parts = formatFor(timeZone).formatToParts(at)
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0)
  return { y: get('year'), m: get('month'), d: get('day'), h: get('hour'), min: get('minute') }
}

/** Offset (ms) of a time zone from UTC at an instant, via Intl (no tz database of our own). */
export function zoneOffsetMs(instant: number, timeZone: string): number {
  const parts = formatFor(timeZone).formatToParts(new Date(instant))
  const get = (t: string): number => Number(parts.find((p) => p.type === t)?.value ?? 0)
  const asUtc = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'))
  return asUtc - instant
}

/** The instant (ms) of local wall-clock `hour` on `date` (YYYY-MM-DD) in `timeZone`. */
export function zonedInstant(date: string, hour: number, timeZone: string): number {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number)
  const guess = Date.UTC(y, m - 1, d, hour)
  return guess - zoneOffsetMs(guess - zoneOffsetMs(guess, timeZone), timeZone)
}
