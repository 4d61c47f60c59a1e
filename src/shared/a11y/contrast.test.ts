import { describe, expect, it } from 'vitest'
import { contrastRatio, luminance, readableTextOn } from './contrast'

describe('WCAG contrast', () => {
  it('measures luminance and contrast as WCAG defines them', () => {
    expect(luminance('#000000')).toBe(0)
    expect(luminance('#ffffff')).toBeCloseTo(1, 10)
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 10)
    expect(contrastRatio('#ffffff', '#000000')).toBeCloseTo(21, 10)
    // The pair axe-core reported on /Alerts: dark text on the Critical tag.
    expect(contrastRatio('#1c2127', '#c92a2a')).toBeCloseTo(2.97, 2)
  })

  it('picks the more readable of two text colours', () => {
    expect(readableTextOn('#c92a2a', '#f6f7f9', '#1c2127')).toBe('#f6f7f9')
    expect(readableTextOn('#ffa94d', '#f6f7f9', '#1c2127')).toBe('#1c2127')
  })

  it('rejects what is not a hex colour', () => {
    expect(() => luminance('red')).toThrow(/not a #rrggbb colour/)
  })
})
