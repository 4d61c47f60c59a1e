import { describe, expect, it } from 'vitest'
import { mapLayerById, themeConfig } from '../../../shared/config'
import { compilePaintStyle } from './compilePaintStyle'

const NOW = Date.parse('2025-03-05T18:00:00Z')
const hoursAgo = (h: number) => new Date(NOW - h * 3_600_000).toISOString()
const style = (id: string) => compilePaintStyle(mapLayerById(id))

describe('compilePaintStyle', () => {
  it('gives the spec line widths and hit areas', () => {
    expect([style('epss_line').width, style('psps_line').width]).toEqual([6, 6])
    expect(style('transmission_lines').width).toBe(4)
    expect(style('distribution_lines').width).toBe(2)
    for (const id of ['epss_line', 'psps_line', 'transmission_lines', 'distribution_lines']) {
      expect(style(id).hitWidth).toBeGreaterThanOrEqual(20)
      expect(style(id).hitWidth).toBeLessThanOrEqual(24)
    }
    expect(style('thermal_hotspots').hitRadius).toBe(12)
    expect(style('weather_stations_raw').hitRadius).toBe(12)
  })

  it('resolves theme colour names and fill opacity', () => {
    const s = style('transmission_lines')
    expect(s.colorOf({}, NOW)).toBe(themeConfig.map.transmissionLines)
    expect(style('buildings').opacity).toBe(0.5)
    expect(style('buildings').type).toBe('fill')
    expect(style('smoke').opacity).toBe(1)
    expect(style('smoke').type).toBe('raster')
  })

  it('colours thermal hotspots by age bucket', () => {
    const s = style('viirs_thermal_hotspots')
    const c = themeConfig.map.fireIntensity
    expect(s.colorOf({ acquired: hoursAgo(1) }, NOW)).toBe(c.low)
    expect(s.colorOf({ acquired: hoursAgo(6) }, NOW)).toBe(c.low)
    expect(s.colorOf({ acquired: hoursAgo(7) }, NOW)).toBe(c.medium)
    expect(s.colorOf({ acquired: hoursAgo(20) }, NOW)).toBe(c.high)
    expect(s.colorOf({ acquired: hoursAgo(30) }, NOW)).toBe(c.veryHigh)
  })

  it('colours forecast fire by percentile band', () => {
    const s = style('forecasted_fire')
    const f = themeConfig.map.forecastedFires
    expect(s.colorOf({ percentile: 95 }, NOW)).toBe(f['90'])
    expect(s.colorOf({ percentile: 90 }, NOW)).toBe(f['90'])
    expect(s.colorOf({ percentile: 75 }, NOW)).toBe(f['75'])
    expect(s.colorOf({ percentile: 50 }, NOW)).toBe(f['50'])
    expect(s.colorOf({ percentile: 20 }, NOW)).toBe(themeConfig.colors.grey4)
  })

  it('draws 100% contained active fires in the historic colour', () => {
    const s = style('active_fires')
    expect(s.colorOf({ percent_contained: 100 }, NOW)).toBe(themeConfig.map.historicFirePerimeters)
    expect(s.colorOf({ percent_contained: 40 }, NOW)).toBe(themeConfig.map.activeFires)
  })

  it('picks critical-infrastructure icons by type, unknown otherwise', () => {
    const s = style('critical_infrastructure')
    expect(s.iconOf({ type: 'Hospital' }).icon).toBe('hospital')
    expect(s.iconOf({ type: 'Water Tower' })).toEqual({
      icon: 'water-tower',
      color: themeConfig.map['water-tower-blue'],
    })
    expect(s.iconOf({ type: 'Bakery' }).icon).toBe('unknown')
  })

  it('filters by any-of and all-of config filters', () => {
    const s = compilePaintStyle(mapLayerById('forecasted_fire'), {
      anyOf: [
        { field: 'percentile', op: 'eq', value: 50 },
        { field: 'percentile', op: 'eq', value: 90 },
      ],
    })
    expect(s.filter?.({ percentile: 50 })).toBe(true)
    expect(s.filter?.({ percentile: 75 })).toBe(false)
    const one = compilePaintStyle(mapLayerById('psps_fire_consequence_mvts'), {
      allOf: [{ field: 'identifier', op: 'eq', value: 'PSPS-7' }],
    })
    expect(one.filter?.({ identifier: 'PSPS-7' })).toBe(true)
    expect(one.filter?.({ identifier: 'PSPS-8' })).toBe(false)
    expect(style('buildings').filter).toBeUndefined()
  })

  it('names the tile layer after the dataset', () => {
    expect(style('psps_line').dataLayer).toBe('public_safety_power_shutoff')
  })
})
