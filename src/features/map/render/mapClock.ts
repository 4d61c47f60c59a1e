import { appConfig } from '../../../shared/config'
import { zonedInstant } from '../../../shared/time/zonedInstant'

/** Noon local time of the demo reference date (the demo data's "now"), in ms. */
export function demoNow(
  date: string = appConfig.demo.referenceDate,
  timeZone: string = appConfig.demo.timeZone,
): number {
  return zonedInstant(date, 12, timeZone)
}

/** The clock age-based styles (hotspot age buckets) are measured against. */
export function mapClock(demo: boolean): () => number {
  const fixed = demo ? demoNow() : null
  return () => fixed ?? Date.now()
}
