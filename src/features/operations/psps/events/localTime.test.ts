import { describe, expect, it } from 'vitest'
import { fromLocalInput, toLocalInput } from './localTime'

describe('local time inputs', () => {
  it('round-trips a moment through the input value to the minute', () => {
    const t = Date.UTC(2026, 10, 27, 18, 42, 31)
    expect(fromLocalInput(toLocalInput(t))).toBe(new Date(t - 31_000).toISOString())
  })

  it('refuses what is not a date and time', () => {
    expect(fromLocalInput('')).toBeNull()
    expect(fromLocalInput('2026-11-27')).toBeNull()
    expect(fromLocalInput('2026-13-45T99:99')).toBeNull()
  })
})
