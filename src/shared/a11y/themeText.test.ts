import { describe, expect, it } from 'vitest'
import { operationsConfig, resolveColor, themeConfig } from '../config'
import { contrastRatio, minTextContrast } from './contrast'
import { themeTextOn } from './themeText'

const { colors } = themeConfig

describe('dark theme text contrast (WCAG 2.1 AA, 4.5:1)', () => {
  it.each([
    ['text', 'background'],
    ['text', 'surface'],
    ['grey5', 'background'],
    ['grey5', 'surface'],
  ] as const)('%s on %s', (fg, bg) => {
    expect(contrastRatio(colors[fg], colors[bg])).toBeGreaterThanOrEqual(minTextContrast)
  })

  it.each(operationsConfig.alerts.severities.map((s) => [s.label, s.color]))(
    'the %s severity tag (%s) with the text colour chosen for it',
    (_label, ref) => {
      const bg = resolveColor(ref)
      expect(contrastRatio(themeTextOn(bg), bg)).toBeGreaterThanOrEqual(minTextContrast)
    },
  )

  it('picks light text on the Critical red and dark text on the Advisory orange', () => {
    expect(themeTextOn('#c92a2a')).toBe(colors.text)
    expect(themeTextOn('#ffa94d')).toBe(colors.surface)
  })
})

describe('themeTextOn', () => {
  it('falls back to the text colour for what is not a hex colour', () => {
    expect(themeTextOn('red')).toBe(colors.text)
  })
})
