import { describe, expect, it } from 'vitest'
import { layersConfig, tablesConfig } from '../config'
import { FORMATTER_NAMES, formatPlain, formatValue, isFormatterName } from './formatValue'

describe('formatValue', () => {
  const record = { forecasted_wind_gust: 51.23, forecasted_wind_gust_unit: 'mph' }
  it('dispatches every formatter name', () => {
    const opts = { timeZone: 'UTC', now: Date.parse('2025-03-05T12:00:00Z') }
    expect(formatValue('currency', 1500, record, opts)).toBe('$1,500.00')
    expect(formatValue('sigfig3', 1234.5, record, opts)).toBe('1,230')
    expect(formatValue('decimal1', 2, record, opts)).toBe('2.0')
    expect(formatValue('date', '2025-03-05T06:00:00Z', record, opts)).toBe('Mar 5, 2025, 6:00 AM UTC')
    expect(formatValue('hoursAgo', '2025-03-05T06:00:00Z', record, opts)).toBe('6 hours ago')
    expect(
      formatValue({ formatter: 'valueUnit', unitField: 'forecasted_wind_gust_unit' }, 51.23, record),
    ).toBe('51.2 mph')
    expect(formatValue('titleCase', 'red flag', record)).toBe('Red Flag')
    expect(formatValue('zoomTo', [-106.5, 35.1, -106.4, 35.2], record)).toBe('-106.5, 35.1, -106.4, 35.2')
  })
  it('shows the plain value without a formatter or with an unknown one', () => {
    expect(formatValue(undefined, 'ABC-12')).toBe('ABC-12')
    expect(formatValue(null, 42)).toBe('42')
    expect(formatValue('nonsense', 'x')).toBe('x')
    expect(formatValue({}, null)).toBe('')
  })
  it('handles every formatter named in config/tables.yaml and config/layers.yaml popups', () => {
    const used = new Set<string>()
    const text = JSON.stringify([tablesConfig, layersConfig])
    for (const m of text.matchAll(/"formatter":"([^"]+)"/g)) used.add(m[1] ?? '')
    expect(used.size).toBeGreaterThan(0)
    for (const name of used) expect(isFormatterName(name), name).toBe(true)
    expect([...used].sort()).toEqual([...FORMATTER_NAMES].sort())
  })
})

describe('formatPlain', () => {
  it('joins arrays and stringifies objects', () => {
    expect(formatPlain([1, 2])).toBe('1, 2')
    expect(formatPlain({ a: 1 })).toBe('{"a":1}')
    expect(formatPlain(undefined)).toBe('')
  })
})
