import { describe, expect, it } from 'vitest'
import { displayTimeZone, formatExpiry, formatRemaining } from './sessionExpiry'

describe('session expiry display', () => {
  it('maps the local preference to the device zone', () => {
    expect(displayTimeZone('local')).toBeUndefined()
    expect(displayTimeZone(undefined)).toBeUndefined()
    expect(displayTimeZone('UTC')).toBe('UTC')
  })

  it('formats the expiry in the chosen zone with its name', () => {
    const at = Date.parse('2025-03-06T21:30:00Z')
    expect(formatExpiry(at, 'en-US', 'America/Denver')).toBe('Mar 6, 2025, 2:30 PM MST')
    expect(formatExpiry(at, 'en-US', 'UTC')).toBe('Mar 6, 2025, 9:30 PM UTC')
  })

  it('states the time left', () => {
    const now = Date.parse('2025-03-06T00:00:00Z')
    expect(formatRemaining(now + 4 * 60_000 + 59_000, now)).toBe('4 min')
    expect(formatRemaining(now + (25 * 60 + 3) * 60_000, now)).toBe('25 h 3 min')
    expect(formatRemaining(now - 1000, now)).toBe('0 min')
  })
})
