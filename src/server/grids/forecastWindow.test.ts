import { describe, expect, it } from 'vitest'
import { currentWindowHour, windowStart, windowTimes, zonedInstant } from './forecastWindow'

const demo = { demo: true, referenceDate: '2025-03-05', timeZone: 'America/Denver', startHourLocal: 6 }

describe('forecast window', () => {
  it('finds local hours across time zones and DST', () => {
    expect(zonedInstant(2025, 3, 5, 6, 'America/Denver').toISOString()).toBe('2025-03-05T13:00:00.000Z')
    expect(zonedInstant(2025, 7, 1, 6, 'America/Denver').toISOString()).toBe('2025-07-01T12:00:00.000Z')
  })
  it('starts the demo window on the reference date whatever the real date', () => {
    expect(windowStart(new Date('2026-11-22T01:00:00Z'), demo).toISOString()).toBe('2025-03-05T13:00:00.000Z')
  })
  it('maps the demo clock onto the reference date and clamps to the window', () => {
    // 10:30 in Denver (MST) → hour 4 of a window starting at 06:00.
    expect(currentWindowHour(new Date('2026-01-10T17:30:00Z'), demo, 18)).toBe(4)
    // 03:00 local is before the window; 23:00 local is past its 18 hours.
    expect(currentWindowHour(new Date('2026-01-10T10:00:00Z'), demo, 18)).toBe(0)
    expect(currentWindowHour(new Date('2026-01-11T06:00:00Z'), demo, 18)).toBe(17)
  })
  it('starts the live window at today’s start hour, or yesterday’s before it', () => {
    const live = { ...demo, demo: false }
    expect(windowStart(new Date('2026-01-10T20:00:00Z'), live).toISOString()).toBe('2026-01-10T13:00:00.000Z')
    expect(windowStart(new Date('2026-01-10T12:00:00Z'), live).toISOString()).toBe('2026-01-09T13:00:00.000Z')
    expect(currentWindowHour(new Date('2026-01-10T20:00:00Z'), live, 18)).toBe(7)
  })
  it('lists hourly valid times', () => {
    expect(windowTimes(new Date('2025-03-05T13:00:00Z'), 2)).toEqual([
      '2025-03-05T13:00:00.000Z',
      '2025-03-05T14:00:00.000Z',
    ])
  })
})
