import { zonedInstant as sharedZonedInstant, zonedParts } from '../../shared/time/zonedInstant'

/** The hourly forecast window of the gridded fields: when it starts and which hour is "now". */
export interface WindowSettings {
  demo: boolean
  /** appConfig.demo.referenceDate, 'YYYY-MM-DD'. */
  referenceDate: string
  /** IANA zone of the window's local hours (appConfig.demo.timeZone). */
  timeZone: string
  /** Local hour at which the window starts (appConfig.forecastWindow.startHourLocal). */
  startHourLocal: number
}

const HOUR_MS = 3_600_000

/** The instant of a local date and hour in a time zone (DST-safe for whole hours). */
export function zonedInstant(y: number, m: number, d: number, hour: number, timeZone: string): Date {
  const date = `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`
  return new Date(sharedZonedInstant(date, hour, timeZone))
}

/**
 * Start of the window. Demo mode: the reference date at the start hour. Otherwise: today's start
 * hour in the zone, or yesterday's when that is still ahead.
 */
export function windowStart(now: Date, s: WindowSettings): Date {
  if (s.demo) {
    const [y, m, d] = s.referenceDate.split('-').map(Number) as [number, number, number]
    return zonedInstant(y, m, d, s.startHourLocal, s.timeZone)
  }
  const p = zonedParts(now, s.timeZone)
  const today = zonedInstant(p.y, p.m, p.d, s.startHourLocal, s.timeZone)
  return today.getTime() <= now.getTime() ? today : new Date(today.getTime() - 24 * HOUR_MS)
}

/**
 * The current hour of the window, 0..hours-1. In demo mode "now" is the reference date at
 * today's local time of day, so the demo always shows the same day.
 */
export function currentWindowHour(now: Date, s: WindowSettings, hours: number): number {
  const start = windowStart(now, s)
  let at = now
  if (s.demo) {
    const p = zonedParts(now, s.timeZone)
    const [y, m, d] = s.referenceDate.split('-').map(Number) as [number, number, number]
    at = new Date(zonedInstant(y, m, d, p.h, s.timeZone).getTime() + p.min * 60_000)
  }
  const h = Math.floor((at.getTime() - start.getTime()) / HOUR_MS)
  return Math.min(hours - 1, Math.max(0, h))
}

/** ISO valid times of each hour of the window. */
export function windowTimes(start: Date, hours: number): string[] {
  return Array.from({ length: hours }, (_, h) => new Date(start.getTime() + h * HOUR_MS).toISOString())
}
