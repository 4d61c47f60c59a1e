import type { QuietHours } from '../store/alertSubscriptionStore'

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/

/** Minutes after local midnight of 'HH:MM', or null when malformed. */
export function clockMinutes(text: string): number | null {
  const m = HHMM.exec(text)
  return m ? Number(m[1]) * 60 + Number(m[2]) : null
}

/** Minutes after local midnight of an instant in a time zone. */
export function localMinutes(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at)
  const value = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0)
  return value('hour') * 60 + value('minute')
}

/**
 * Whether `at` falls in the quiet period [start, end) read in `timeZone`; a period whose end is
 * before its start runs across midnight (22:00–06:00), equal ends mean no quiet period.
 */
export function inQuietHours(quiet: QuietHours | null, at: number, timeZone: string): boolean {
  if (!quiet) return false
  const start = clockMinutes(quiet.start)
  const end = clockMinutes(quiet.end)
  if (start === null || end === null || start === end) return false
  const now = localMinutes(at, timeZone)
  return start < end ? now >= start && now < end : now >= start || now < end
}
