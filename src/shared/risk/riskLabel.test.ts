import { describe, expect, it } from 'vitest'
import { riskLabel } from './riskLabel'

describe('riskLabel', () => {
  it('uses the configured thresholds of spec §9', () => {
    expect(riskLabel(1)).toBe('High')
    expect(riskLabel(0.75)).toBe('High')
    expect(riskLabel(0.7499)).toBe('Medium-High')
    expect(riskLabel(0.5)).toBe('Medium-High')
    expect(riskLabel(0.4999)).toBe('Medium')
    expect(riskLabel(0.25)).toBe('Medium')
    expect(riskLabel(0.2499)).toBe('Low')
    expect(riskLabel(0)).toBe('Low')
  })

  it('gives the lowest label below every rule and for NaN', () => {
    expect(riskLabel(-0.1)).toBe('Low')
    expect(riskLabel(Number.NaN)).toBe('Low')
  })

  it('follows rules given in any order', () => {
    const rules = [
      { min: 0, label: 'Calm' },
      { min: 0.9, label: 'Extreme' },
      { min: 0.4, label: 'Watch' },
    ]
    expect(riskLabel(0.95, rules)).toBe('Extreme')
    expect(riskLabel(0.4, rules)).toBe('Watch')
    expect(riskLabel(0.39, rules)).toBe('Calm')
  })

  it('refuses an empty rule list', () => {
    expect(() => riskLabel(0.5, [])).toThrow(/at least one rule/)
  })
})
