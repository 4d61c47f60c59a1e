import { describe, expect, it } from 'vitest'
import { mapLayerById } from '../../../shared/config'
import { popupContent } from './popupContent'

const popupOf = (id: string) => {
  const popup = mapLayerById(id).popup
  if (!popup) throw new Error(`${id} has no popup`)
  return popup
}

describe('popupContent', () => {
  it('shows the transmission-line fields of the spec', () => {
    const c = popupContent(popupOf('transmission_lines'), {
      identifier: 'TX-12',
      circuit_length: 12.345,
      nominal_voltage: 115,
      operating_voltage: 113.8,
    })
    expect(c.title).toBe('TX-12')
    expect(c.rows.map((r) => r.label)).toEqual([
      'Circuit length (mi)',
      'Identifier',
      'Nominal voltage (kV)',
      'Operating voltage (kV)',
    ])
    expect(c.rows[0]?.value).toBe('12.3')
    expect(c.rows[1]?.value).toBe('TX-12')
  })

  it('shows thermal hotspot acquired as a time and as hours ago', () => {
    const c = popupContent(popupOf('thermal_hotspots'), {
      satellite: 'NOAA-20',
      radiative_power_mw: 12.5,
      temperature_c: 340,
      intensity_score: 0.62,
      acquired: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    })
    const labels = c.rows.map((r) => r.label)
    expect(labels).toEqual([
      'Radiative power (MW)',
      'Temperature (°C)',
      'Intensity score',
      'Acquired',
      'Time since last update',
    ])
    expect(c.rows[4]?.value).toMatch(/3 hours ago/)
  })

  it("measures 'time since last update' against the map's clock (the demo reference time in demo mode)", () => {
    const demoNow = Date.parse('2025-03-05T19:00:00Z')
    const c = popupContent(
      popupOf('thermal_hotspots'),
      { radiative_power_mw: 1, temperature_c: 300, intensity_score: 0.5, acquired: '2025-03-05T14:00:00Z' },
      demoNow,
    )
    expect(c.rows[4]?.value).toMatch(/^5 hours ago$/)
  })

  it('uses a literal title when it is not an attribute', () => {
    expect(popupContent(popupOf('buildings'), { area_ft2: 1500 }).title).toBe('Building')
  })
})
