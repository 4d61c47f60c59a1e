import { describe, expect, it } from 'vitest'
import type { MitigationFactorInfo } from './mitigationApi'
import { differsFromDefaults, parseWeightText, weightTexts, withTypedWeight } from './weightTexts'

const factor = (id: string, defaultWeight: number): MitigationFactorInfo => ({
  id,
  field: id,
  label: id.toUpperCase(),
  defaultWeight,
  weight: defaultWeight,
  share: 0,
})
const FACTORS = [factor('a', 0.6), factor('b', 0.4)]

describe('weight inputs', () => {
  it('accepts plain non-negative decimals only', () => {
    expect(parseWeightText(' 0.25 ')).toBe(0.25)
    expect(parseWeightText('3')).toBe(3)
    expect(parseWeightText('.5')).toBe(0.5)
    for (const bad of ['', '-1', 'abc', '1e3', '0x1', '1,5', 'Infinity'])
      expect(parseWeightText(bad)).toBeNull()
  })

  it('shows what was typed, else the weight in use, else the default', () => {
    expect(weightTexts(FACTORS, {}, null)).toEqual({ a: '0.6', b: '0.4' })
    expect(weightTexts(FACTORS, { a: '0.' }, { a: 0, b: 2 })).toEqual({ a: '0.', b: '2' })
  })

  it('a typed weight replaces one factor and keeps the others (defaults when none chosen yet)', () => {
    expect(withTypedWeight(FACTORS, null, 'b', '1')).toEqual({ a: 0.6, b: 1 })
    expect(withTypedWeight(FACTORS, { a: 0, b: 1 }, 'a', '2')).toEqual({ a: 2, b: 1 })
    expect(withTypedWeight(FACTORS, null, 'a', 'x')).toBeNull()
  })

  it('knows when the weights differ from the defaults', () => {
    expect(differsFromDefaults(FACTORS, null)).toBe(false)
    expect(differsFromDefaults(FACTORS, { a: 0.6, b: 0.4 })).toBe(false)
    expect(differsFromDefaults(FACTORS, { a: 0.6, b: 0.5 })).toBe(true)
  })
})
