import { describe, expect, it } from 'vitest'
import { demoNow, mapClock } from './mapClock'

describe('mapClock', () => {
  it('uses noon Mountain time of the reference date in demo mode', () => {
    expect(new Date(demoNow('2025-03-05', 'America/Denver')).toISOString()).toBe('2025-03-05T19:00:00.000Z')
    expect(mapClock(true)()).toBe(demoNow())
  })
  it('uses the wall clock otherwise', () => {
    const t = mapClock(false)()
    expect(Math.abs(t - Date.now())).toBeLessThan(1000)
  })
})
