import { describe, expect, it } from 'vitest'
import { zoneOffsetMs, zonedInstant } from './zonedInstant'

describe('zonedInstant', () => {
  it('gives noon Mountain Standard Time as 19:00 UTC', () => {
    expect(new Date(zonedInstant('2025-03-05', 12, 'America/Denver')).toISOString()).toBe(
      '2025-03-05T19:00:00.000Z',
    )
  })
  it('follows daylight saving time (MDT is UTC-6)', () => {
    expect(new Date(zonedInstant('2025-07-01', 12, 'America/Denver')).toISOString()).toBe(
      '2025-07-01T18:00:00.000Z',
    )
  })
  it('reports the zone offset at an instant', () => {
    expect(zoneOffsetMs(Date.UTC(2025, 2, 5, 19), 'America/Denver')).toBe(-7 * 3_600_000)
  })
})
