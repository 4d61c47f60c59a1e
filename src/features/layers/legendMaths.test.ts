import { describe, expect, it } from 'vitest'
import { themeConfig } from '../../shared/config'
import { legendById } from '../map/catalog/catalog'
import { gradientTicks, legendSwatches } from './legendMaths'

describe('gradientTicks', () => {
  it('spaces the PSPS score stops evenly from 0 to 1', () => {
    const ticks = gradientTicks(legendById('psps_score').stops ?? [])
    expect(ticks.map((t) => t.label)).toEqual(['0', '0.2', '0.4', '0.6', '0.8', '1'])
    expect(ticks.map((t) => t.percent)).toEqual([0, 20, 40, 60, 80, 100])
  })

  it('puts the unit after the last value and uses stop labels', () => {
    const wind = gradientTicks(legendById('wind_speed').stops ?? [], 'mph')
    expect(wind.map((t) => t.label)).toEqual(['0', '12', '24', '36', '48', '60 mph'])
    const rh = gradientTicks(legendById('relative_humidity').stops ?? [], '%')
    expect(rh.at(-1)?.label).toBe('100%')
    const fc = gradientTicks(legendById('fire_consequence').stops ?? [], 'structures impacted')
    expect([fc[0]?.label, fc.at(-1)?.label]).toEqual(['Low', 'High'])
    expect(gradientTicks([{ value: 3, color: '#000000' }])).toEqual([{ label: '3', percent: 0 }])
  })
})

describe('legendSwatches', () => {
  it('lists hotspot age buckets from the scale with theme colours', () => {
    const s = legendSwatches(legendById('hotspot_age'))
    expect(s.map((x) => x.label)).toEqual(['0-6 hours', '6-12 hours', '12-24 hours', 'Over 24 hours'])
    expect(s[0]?.color).toBe(themeConfig.map.fireIntensity.low)
  })

  it('lists the red PSPS line legend and the critical-infrastructure icons', () => {
    expect(legendSwatches(legendById('psps_lines'))).toEqual([
      {
        label: 'Lines Recommended for De-Energization',
        color: themeConfig.map.psps,
        width: 6,
        icon: undefined,
      },
    ])
    const icons = legendSwatches(legendById('critical_infrastructure')).map((x) => x.label)
    expect(icons).toContain('Grocery Store')
    expect(icons).toContain('Emergency Shelters')
  })

  it('lists vegetation classes', () => {
    expect(legendSwatches(legendById('vegetation'))[0]).toEqual({ label: 'Water', color: '#4a80b4' })
  })
})
