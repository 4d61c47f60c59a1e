import { appConfig } from '../../generated/config'
import { toDate } from './formatOptions'

export interface DayLabelOptions {
  /** Calendar day that counts as today (YYYY-MM-DD); defaults to the current day in the label zone. */
  referenceDate?: string
  /** IANA zone of the labels; defaults to `formatting.dayLabelTimeZone`. */
  timeZone?: string
  locale?: string
}

function calendarDay(d: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(d)
}

/**
 * A day label in the configured (Mountain) time zone: the configured 'Today' text for the reference
 * day, otherwise a short weekday and date such as "Thu, Mar 6".
 */
export function formatDayLabel(value: unknown, options: DayLabelOptions = {}): string {
  const d = toDate(value)
  if (d === null) return ''
  const f = appConfig.formatting
  const timeZone = options.timeZone ?? f.dayLabelTimeZone
  const reference = options.referenceDate ?? calendarDay(new Date(), timeZone)
  if (calendarDay(d, timeZone) === reference) return f.todayLabel
  return new Intl.DateTimeFormat(options.locale ?? f.locale, {
    timeZone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
  }).format(d)
}
