import { describe, expect, it } from 'vitest'
import { formatDate, formatHoursAgo } from './formatDate'

describe('formatDate', () => {
  it('shows the date in the given zone with the zone name', () => {
    expect(formatDate('2025-03-05T22:00:00Z', { timeZone: 'America/Denver' })).toBe(
      'Mar 5, 2025, 3:00 PM MST',
    )
    expect(formatDate('2025-07-04T18:30:00Z', { timeZone: 'America/Denver' })).toBe(
      'Jul 4, 2025, 12:30 PM MDT',
    )
    expect(formatDate(Date.UTC(2025, 0, 1, 0, 0), { timeZone: 'UTC' })).toBe('Jan 1, 2025, 12:00 AM UTC')
  })
  it('uses the local zone by default and names it', () => {
    const text = formatDate('2025-03-05T22:00:00Z')
    expect(text).toMatch(/^[A-Z][a-z]{2} \d{1,2}, 2025, \d{1,2}:\d{2} [AP]M \S+/)
  })
  it('is empty for missing or invalid dates', () => {
    expect(formatDate(null)).toBe('')
    expect(formatDate('not a date')).toBe('')
  })
})

describe('formatHoursAgo', () => {
  const now = Date.parse('2025-03-05T12:00:00Z')
  it('rounds to whole hours through the config template', () => {
    expect(formatHoursAgo('2025-03-05T09:00:00Z', { now })).toBe('3 hours ago')
    expect(formatHoursAgo('2025-03-05T09:31:00Z', { now })).toBe('2 hours ago')
    expect(formatHoursAgo('2025-03-05T09:29:00Z', { now })).toBe('3 hours ago')
    expect(formatHoursAgo('2025-03-05T11:50:00Z', { now })).toBe('0 hours ago')
    expect(formatHoursAgo('2025-02-01T12:00:00Z', { now })).toBe('768 hours ago')
  })
  it('is empty for missing dates', () => {
    expect(formatHoursAgo(undefined, { now })).toBe('')
  })
})
