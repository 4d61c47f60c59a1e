import { describe, expect, it } from 'vitest'
import { dateTimeFormat, numberFormat } from './intlCache'

describe('intlCache', () => {
  it('makes one formatter per locale and options, and formats as a new one would', () => {
    const options = { timeZone: 'America/Denver', month: 'short', day: 'numeric' } as const
    const a = dateTimeFormat('en-US', options)
    expect(dateTimeFormat('en-US', { ...options })).toBe(a)
    expect(dateTimeFormat('en-GB', options)).not.toBe(a)
    expect(dateTimeFormat('en-US', { ...options, timeZone: 'UTC' })).not.toBe(a)
    const d = new Date('2025-03-05T06:30:00Z')
    expect(a.format(d)).toBe(new Intl.DateTimeFormat('en-US', options).format(d))
    const n = numberFormat('en-US', { maximumSignificantDigits: 3 })
    expect(numberFormat('en-US', { maximumSignificantDigits: 3 })).toBe(n)
    expect(n.format(12345)).toBe('12,300')
    expect(numberFormat('de-DE').format(1234.5)).toBe('1.234,5')
  })
})
