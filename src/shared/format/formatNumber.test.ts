import { describe, expect, it } from 'vitest'
import { formatCurrency, formatOneDecimal, formatSignificant } from './formatNumber'

describe('formatCurrency', () => {
  it('shows US dollars with thousands separators', () => {
    expect(formatCurrency(1234567)).toBe('$1,234,567.00')
    expect(formatCurrency(12.5)).toBe('$12.50')
    expect(formatCurrency('2500000')).toBe('$2,500,000.00')
  })
  it('is empty for missing or non-numeric values', () => {
    expect(formatCurrency(null)).toBe('')
    expect(formatCurrency(undefined)).toBe('')
    expect(formatCurrency('n/a')).toBe('')
    expect(formatCurrency(Number.NaN)).toBe('')
  })
})

describe('formatSignificant', () => {
  it('rounds to three significant digits', () => {
    expect(formatSignificant(12345)).toBe('12,300')
    expect(formatSignificant(3.14159)).toBe('3.14')
    expect(formatSignificant(0.012345)).toBe('0.0123')
    expect(formatSignificant(7)).toBe('7')
    expect(formatSignificant(-98765)).toBe('-98,800')
    expect(formatSignificant(0)).toBe('0')
  })
  it('is empty for missing values', () => {
    expect(formatSignificant('')).toBe('')
    expect(formatSignificant({})).toBe('')
  })
})

describe('formatOneDecimal', () => {
  it('always shows exactly one decimal', () => {
    expect(formatOneDecimal(3)).toBe('3.0')
    expect(formatOneDecimal(2.46)).toBe('2.5')
    expect(formatOneDecimal(1234.04)).toBe('1,234.0')
    expect(formatOneDecimal('0.25')).toBe('0.3')
  })
  it('is empty for missing values', () => {
    expect(formatOneDecimal(null)).toBe('')
  })
})
