import { describe, expect, it } from 'vitest'
import { formatTitleCase, formatValueWithUnit } from './formatText'

describe('formatTitleCase', () => {
  it('title-cases every word', () => {
    expect(formatTitleCase('high voltage')).toBe('High Voltage')
    expect(formatTitleCase('EXTREME')).toBe('Extreme')
    expect(formatTitleCase('very_high')).toBe('Very High')
    expect(formatTitleCase('medium-high')).toBe('Medium-High')
    expect(formatTitleCase('  lightning   strike ')).toBe('Lightning Strike')
  })
  it('is empty for missing values', () => {
    expect(formatTitleCase(null)).toBe('')
  })
})

describe('formatValueWithUnit', () => {
  it('appends the unit from the unit field', () => {
    const record = { forecasted_wind_gust: 45.678, forecasted_wind_gust_unit: 'mph' }
    expect(formatValueWithUnit(45.678, record, 'forecasted_wind_gust_unit')).toBe('45.7 mph')
  })
  it('shows the value alone when the unit is missing', () => {
    expect(formatValueWithUnit(12, { other: 1 }, 'forecasted_wind_gust_unit')).toBe('12')
    expect(formatValueWithUnit(12, undefined, undefined)).toBe('12')
  })
  it('keeps non-numeric values as text and is empty for missing values', () => {
    expect(formatValueWithUnit('calm', { u: 'kt' }, 'u')).toBe('calm kt')
    expect(formatValueWithUnit(null, { u: 'kt' }, 'u')).toBe('')
  })
})
