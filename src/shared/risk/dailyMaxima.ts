import { dayKeyInZone } from './dayLabels'

/** The highest score of one calendar day of a series. */
export interface DailyMaximum {
  /** YYYY-MM-DD in the grouping time zone. */
  readonly day: string
  readonly max: number
  /** Index in the series of the (first) maximum. */
  readonly index: number
}

/**
 * Groups a timestamped series by calendar day in `timeZone` and keeps each day's maximum, in
 * calendar order. Non-finite scores are ignored; a day with none is left out.
 */
export function dailyMaxima(
  timestamps: readonly string[],
  scores: readonly number[],
  timeZone: string,
): DailyMaximum[] {
  const byDay = new Map<string, DailyMaximum>()
  const count = Math.min(timestamps.length, scores.length)
  for (let i = 0; i < count; i += 1) {
    const score = scores[i]
    const timestamp = timestamps[i]
    if (score === undefined || timestamp === undefined || !Number.isFinite(score)) continue
    const day = dayKeyInZone(timestamp, timeZone)
    const current = byDay.get(day)
    if (!current || score > current.max) byDay.set(day, { day, max: score, index: i })
  }
  return [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day))
}
