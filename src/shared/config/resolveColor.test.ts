import { describe, expect, it } from 'vitest'
import { themeConfig } from '../../generated/config'
import { resolveColor } from './resolveColor'
import { colorValue, isHexColor, lookupThemeColor } from './themeColors'

describe('resolveColor', () => {
  it('passes hex colours through, with or without alpha', () => {
    expect(resolveColor('#12ab9F')).toBe('#12ab9F')
    expect(resolveColor('#00000000')).toBe('#00000000')
  })

  it('resolves palette, map and hyphenated names from the theme', () => {
    expect(resolveColor('primary')).toBe(themeConfig.colors.primary)
    expect(resolveColor('activeFires')).toBe(themeConfig.map.activeFires)
    expect(resolveColor('epss-risk-score')).toBe(themeConfig.map['epss-risk-score'])
  })

  it('resolves nested group names', () => {
    expect(resolveColor('fireIntensity.high')).toBe(themeConfig.map.fireIntensity.high)
    expect(resolveColor('forecastedFires.90')).toBe(themeConfig.map.forecastedFires['90'])
    expect(resolveColor('smoke.6')).toBe(themeConfig.map.smoke['6'])
    expect(resolveColor('windSpeed.10')).toBe(themeConfig.map.windSpeed['10'])
  })

  it('throws on names the theme does not have', () => {
    expect(() => resolveColor('fireIntensity.extreme')).toThrow(/Unknown colour 'fireIntensity.extreme'/)
    expect(() => resolveColor('nope')).toThrow(/Unknown colour/)
    expect(() => resolveColor('#12345')).toThrow(/Unknown colour/)
  })

  it('does not treat a group as a colour or a plain colour as a group', () => {
    expect(lookupThemeColor(themeConfig, 'smoke')).toBeUndefined()
    expect(lookupThemeColor(themeConfig, 'epss.low')).toBeUndefined()
  })

  it('uses a theme passed in', () => {
    const theme = { ...themeConfig, map: { ...themeConfig.map, psps: '#010203' } }
    expect(resolveColor('psps', theme)).toBe('#010203')
    expect(colorValue(theme, 'psps')).toBe('#010203')
  })

  it('recognises hex colours', () => {
    expect(isHexColor('#abcdef')).toBe(true)
    expect(isHexColor('#abcdef80')).toBe(true)
    expect(isHexColor('#abc')).toBe(false)
    expect(isHexColor('abcdef')).toBe(false)
  })
})
