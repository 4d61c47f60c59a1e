import { dateTimeFormat } from '../format/intlCache'
/** Calendar day (YYYY-MM-DD) of an instant in a time zone, e.g. America/Denver. */
export function dayKeyInZone(instant: Date | string, timeZone: string): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant
  if (Number.isNaN(date.getTime())) throw new RangeError(`Not a date: ${String(instant)}`)
  const parts = dateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date)
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}

/**
 * The day shown as 'Today': the fixed reference date when one is configured (demo mode),
 * otherwise the current day in the time zone.
 */
export function todayKey(
  referenceDate: string | null | undefined,
  timeZone: string,
  now = new Date(),
): string {
  return referenceDate ? referenceDate : dayKeyInZone(now, timeZone)
}

export interface DayLabelOptions {
  readonly todayKey: string
  readonly todayLabel: string
  readonly locale: string
}

/** 'Today' for the reference day, otherwise a short weekday and date such as 'Thu, Mar 6'. */
export function dayLabel(dayKey: string, options: DayLabelOptions): string {
  if (dayKey === options.todayKey) return options.todayLabel
  const noon = new Date(`${dayKey}T12:00:00Z`)
  if (Number.isNaN(noon.getTime())) throw new RangeError(`Not a day: ${dayKey}`)
  return dateTimeFormat(options.locale, {
    timeZone: 'UTC',
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  }).format(noon)
}

/** A short hour label for a chart axis, e.g. 'Mar 5, 2 PM', in the time zone. */
export function hourLabel(instant: Date | string, timeZone: string, locale: string): string {
  const date = typeof instant === 'string' ? new Date(instant) : instant
  if (Number.isNaN(date.getTime())) return String(instant)
  return dateTimeFormat(locale, {
    timeZone,
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
  }).format(date)
}
