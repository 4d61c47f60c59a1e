import { describe, expect, it } from 'vitest'
import { legendById, themeConfig, type GradientStop } from '../../shared/config'
import { gradientTicks, legendSwatches, type SwatchLegend } from './legendMaths'

function stopsOf(id: string): readonly GradientStop[] {
  const legend = legendById(id)
  if (legend.type !== 'gradient') throw new Error(`${id} is not a gradient legend`)
  return legend.stops
}

function swatchLegend(id: string): SwatchLegend {
  const legend = legendById(id)
  if (legend.type === 'gradient') throw new Error(`${id} is a gradient legend`)
  return legend
}

describe('gradientTicks', () => {
  it('spaces the PSPS score stops evenly from 0 to 1', () => {
    const ticks = gradientTicks(stopsOf('psps_score'))
    expect(ticks.map((t) => t.label)).toEqual(['0', '0.2', '0.4', '0.6', '0.8', '1'])
    expect(ticks.map((t) => t.percent)).toEqual([0, 20, 40, 60, 80, 100])
  })

  it('puts the unit after the last value and uses stop labels', () => {
    const wind = gradientTicks(stopsOf('wind_speed'), 'mph')
    expect(wind.map((t) => t.label)).toEqual(['0', '12', '24', '36', '48', '60 mph'])
    const rh = gradientTicks(stopsOf('relative_humidity'), '%')
    expect(rh.at(-1)?.label).toBe('100%')
    const fc = gradientTicks(stopsOf('fire_consequence'), 'structures impacted')
    expect([fc[0]?.label, fc.at(-1)?.label]).toEqual(['Low', 'High'])
    expect(gradientTicks([{ value: 3, color: '#000000' }])).toEqual([{ label: '3', percent: 0 }])
  })
})

describe('legendSwatches', () => {
  it('lists hotspot age buckets from the scale with theme colours', () => {
    const s = legendSwatches(swatchLegend('hotspot_age'))
    expect(s.map((x) => x.label)).toEqual(['0-6 hours', '6-12 hours', '12-24 hours', 'Over 24 hours'])
    expect(s[0]?.color).toBe(themeConfig.map.fireIntensity.low)
  })

  it('lists the red PSPS line legend and the critical-infrastructure icons', () => {
    expect(legendSwatches(swatchLegend('psps_lines'))).toEqual([
      {
        label: 'Lines Recommended for De-Energization',
        color: themeConfig.map.psps,
        width: 6,
        icon: undefined,
      },
    ])
    const icons = legendSwatches(swatchLegend('critical_infrastructure')).map((x) => x.label)
    expect(icons).toContain('Grocery Store')
    expect(icons).toContain('Emergency Shelters')
  })

  it('lists vegetation classes', () => {
    expect(legendSwatches(swatchLegend('vegetation'))[0]).toEqual({ label: 'Water', color: '#4a80b4' })
  })
})
