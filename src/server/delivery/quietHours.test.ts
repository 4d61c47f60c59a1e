import { describe, expect, it } from 'vitest'
import { clockMinutes, inQuietHours, localMinutes } from './quietHours'

const TZ = 'America/Denver'
// 2026-11-22 is in MST (UTC−7): 05:00Z = 22:00 local the day before, 13:30Z = 06:30 local.
const at = (utc: string) => Date.parse(`2026-11-22T${utc}Z`)

describe('quiet hours', () => {
  it('reads local clock minutes in the time zone', () => {
    expect(localMinutes(at('05:00:00'), TZ)).toBe(22 * 60)
    expect(clockMinutes('06:30')).toBe(390)
    expect(clockMinutes('24:00')).toBeNull()
  })

  it('runs across midnight when the end is before the start', () => {
    const quiet = { start: '22:00', end: '06:00' }
    expect(inQuietHours(quiet, at('05:00:00'), TZ)).toBe(true) // 22:00
    expect(inQuietHours(quiet, at('04:59:00'), TZ)).toBe(false) // 21:59
    expect(inQuietHours(quiet, at('12:59:00'), TZ)).toBe(true) // 05:59
    expect(inQuietHours(quiet, at('13:00:00'), TZ)).toBe(false) // 06:00: the end is not quiet
  })

  it('takes a daytime period as it is; none, equal ends or bad times are never quiet', () => {
    expect(inQuietHours({ start: '12:00', end: '14:00' }, at('20:00:00'), TZ)).toBe(true) // 13:00
    expect(inQuietHours({ start: '12:00', end: '14:00' }, at('21:00:00'), TZ)).toBe(false) // 14:00
    expect(inQuietHours(null, at('05:00:00'), TZ)).toBe(false)
    expect(inQuietHours({ start: '06:00', end: '06:00' }, at('13:00:00'), TZ)).toBe(false)
    expect(inQuietHours({ start: 'x', end: '06:00' }, at('05:00:00'), TZ)).toBe(false)
  })
})
