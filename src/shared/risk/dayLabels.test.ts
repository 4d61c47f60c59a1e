import { describe, expect, it } from 'vitest'
import { dayKeyInZone, dayLabel, hourLabel, todayKey } from './dayLabels'

const MT = 'America/Denver'
const options = { todayKey: '2025-03-05', todayLabel: 'Today', locale: 'en-US' }

describe('dayKeyInZone', () => {
  it('splits days at Mountain midnight (UTC-7 in winter)', () => {
    expect(dayKeyInZone('2025-03-06T06:59:00Z', MT)).toBe('2025-03-05')
    expect(dayKeyInZone('2025-03-06T07:00:00Z', MT)).toBe('2025-03-06')
  })

  it('follows daylight saving time (UTC-6 from 9 March 2025)', () => {
    expect(dayKeyInZone('2025-03-09T06:59:00Z', MT)).toBe('2025-03-08')
    expect(dayKeyInZone('2025-03-09T07:00:00Z', MT)).toBe('2025-03-09')
    // After the switch midnight is 06:00Z: a fixed UTC-7 offset would say 9 March here.
    expect(dayKeyInZone('2025-03-10T06:30:00Z', MT)).toBe('2025-03-10')
    expect(dayKeyInZone('2025-03-10T05:59:00Z', MT)).toBe('2025-03-09')
    // And back in November.
    expect(dayKeyInZone('2025-11-02T06:30:00Z', MT)).toBe('2025-11-02')
    expect(dayKeyInZone('2025-11-03T06:30:00Z', MT)).toBe('2025-11-02')
  })

  it('rejects an invalid timestamp', () => {
    expect(() => dayKeyInZone('not a date', MT)).toThrow(RangeError)
  })
})

describe('dayLabel', () => {
  it("shows the reference date as 'Today'", () => {
    expect(dayLabel('2025-03-05', options)).toBe('Today')
  })

  it('shows other days as weekday and date', () => {
    expect(dayLabel('2025-03-06', options)).toBe('Thu, Mar 6')
    expect(dayLabel('2025-03-04', options)).toBe('Tue, Mar 4')
  })

  it('labels a late-evening Mountain timestamp with the Mountain day', () => {
    // 23:30 MST on 5 March is already 6 March in UTC.
    expect(dayLabel(dayKeyInZone('2025-03-06T06:30:00Z', MT), options)).toBe('Today')
  })
})

describe('todayKey', () => {
  it('uses the configured reference date when there is one', () => {
    expect(todayKey('2025-03-05', MT, new Date('2026-01-01T12:00:00Z'))).toBe('2025-03-05')
  })

  it('otherwise uses the current Mountain day', () => {
    expect(todayKey(null, MT, new Date('2026-01-02T03:00:00Z'))).toBe('2026-01-01')
  })
})

describe('hourLabel', () => {
  it('labels an instant with its Mountain-time day and hour', () => {
    expect(hourLabel('2025-03-05T21:00:00Z', MT, 'en-US')).toBe('Mar 5, 2 PM')
    expect(hourLabel('2025-03-10T06:00:00Z', MT, 'en-US')).toBe('Mar 10, 12 AM')
  })

  it('passes through a value that is not a date', () => {
    expect(hourLabel('soon', MT, 'en-US')).toBe('soon')
  })
})
