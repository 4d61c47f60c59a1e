import { dateTimeFormat, numberFormat } from './intlCache'
import { resolveFormatOptions, toDate, type FormatOptions } from './formatOptions'

/** Date and time in the local time zone with the zone's name, e.g. "Mar 5, 2025, 3:00 PM MST". */
export function formatDate(value: unknown, options?: FormatOptions): string {
  const d = toDate(value)
  if (d === null) return ''
  const o = resolveFormatOptions(options)
  return dateTimeFormat(o.locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: o.timeZone,
  }).format(d)
}

/** Whole hours since the value, rounded, through the config template: "3 hours ago". */
export function formatHoursAgo(value: unknown, options?: FormatOptions): string {
  const d = toDate(value)
  if (d === null) return ''
  const o = resolveFormatOptions(options)
  const hours = Math.round((o.now - d.getTime()) / 3_600_000)
  // Math.round(-0.4) is -0; show it as 0.
  const n = numberFormat(o.locale).format(hours === 0 ? 0 : hours)
  return o.hoursAgoTemplate.replace('{n}', n)
}
