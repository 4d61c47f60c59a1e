import { appConfig } from '../../../generated/config'

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
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value ?? 0)
  return (
    Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - instant
  )
}

/** Noon local time of the demo reference date (the demo data's "now"), in ms. */
export function demoNow(
  date: string = appConfig.demo.referenceDate,
  timeZone: string = appConfig.demo.timeZone,
): number {
  const [y = 1970, m = 1, d = 1] = date.split('-').map(Number)
  const guess = Date.UTC(y, m - 1, d, 12)
  return guess - zoneOffsetMs(guess - zoneOffsetMs(guess, timeZone), timeZone)
}

/** The clock age-based styles (hotspot age buckets) are measured against. */
export function mapClock(demo: boolean): () => number {
  const fixed = demo ? demoNow() : null
  return () => fixed ?? Date.now()
}
