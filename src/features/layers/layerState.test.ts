import { describe, expect, it } from 'vitest'
import { layersConfig } from '../../shared/config'
import { initialLayerState, layerReducer } from './layerState'

const defaults = initialLayerState(layersConfig.layers)

describe('initialLayerState', () => {
  it('shows power lines, EPSS and PSPS only, with PSPS and EPSS open', () => {
    const visible = Object.entries(defaults.visible)
      .filter(([, v]) => v)
      .map(([k]) => k)
    expect(visible.sort()).toEqual(['distribution_lines', 'epss', 'psps', 'transmission_lines'])
    const open = Object.entries(defaults.open)
      .filter(([, v]) => v)
      .map(([k]) => k)
    expect(open.sort()).toEqual(['epss', 'psps'])
  })

  it('uses the spec intensities and the score sub-layer', () => {
    for (const id of ['active_fires', 'buildings', 'red_flag_warnings', 'forecasted_fire', 'historic_fires'])
      expect(defaults.intensity[id]).toBe(50)
    expect(defaults.intensity.smoke).toBe(100)
    expect(defaults.subLayerIntensity.psps).toBe(100)
    expect(defaults.selectedSubLayer.psps).toBe('psps_score')
    expect(defaults.checkedSubLayers.forecasted_fire).toHaveLength(3)
  })

  it('restores visible layers and a valid sub-layer from a seed, ignoring unknown ids', () => {
    const s = initialLayerState(layersConfig.layers, {
      visibleLayers: ['smoke', 'nope'],
      subLayers: { psps: 'psps_wind_speed', epss: 'bogus' },
    })
    expect(
      Object.entries(s.visible)
        .filter(([, v]) => v)
        .map(([k]) => k),
    ).toEqual(['smoke'])
    expect(s.selectedSubLayer.psps).toBe('psps_wind_speed')
    expect(s.selectedSubLayer.epss).toBe('epss_score')
  })
})

describe('layerReducer', () => {
  it('toggles visibility and open state', () => {
    let s = layerReducer(defaults, { type: 'setVisible', layerId: 'smoke', visible: true })
    expect(s.visible.smoke).toBe(true)
    s = layerReducer(s, { type: 'toggleOpen', layerId: 'psps' })
    expect(s.open.psps).toBe(false)
  })

  it('clamps intensities to 0..100', () => {
    expect(
      layerReducer(defaults, { type: 'setIntensity', layerId: 'smoke', value: 140 }).intensity.smoke,
    ).toBe(100)
    expect(
      layerReducer(defaults, { type: 'setSubLayerIntensity', layerId: 'psps', value: -3 }).subLayerIntensity
        .psps,
    ).toBe(0)
  })

  it('selecting a sub-layer clears a click override', () => {
    const withOverride = layerReducer(defaults, {
      type: 'showOverride',
      override: { mapLayerId: 'psps_fire_consequence_mvts', field: 'identifier', value: 'X' },
    })
    const s = layerReducer(withOverride, {
      type: 'selectSubLayer',
      layerId: 'psps',
      subLayerId: 'psps_wind_gusts',
    })
    expect(s.selectedSubLayer.psps).toBe('psps_wind_gusts')
    expect(s.override).toBeNull()
  })

  it('toggles checkbox sub-layers', () => {
    const s = layerReducer(defaults, {
      type: 'toggleCheckedSubLayer',
      layerId: 'forecasted_fire',
      subLayerId: 'forecasted_fire_p50',
    })
    expect(s.checkedSubLayers.forecasted_fire).toEqual(['forecasted_fire_p75', 'forecasted_fire_p90'])
    const back = layerReducer(s, {
      type: 'toggleCheckedSubLayer',
      layerId: 'forecasted_fire',
      subLayerId: 'forecasted_fire_p50',
    })
    expect(back.checkedSubLayers.forecasted_fire).toContain('forecasted_fire_p50')
  })

  it('sets and clears the forecast hour (whole hours, no change = same state)', () => {
    expect(defaults.forecastHour).toBeNull()
    const s = layerReducer(defaults, { type: 'setForecastHour', hour: 7 })
    expect(s.forecastHour).toBe(7)
    expect(layerReducer(s, { type: 'setForecastHour', hour: 7 })).toBe(s)
    expect(layerReducer(s, { type: 'setForecastHour', hour: 3.6 }).forecastHour).toBe(3)
    expect(layerReducer(s, { type: 'setForecastHour', hour: null }).forecastHour).toBeNull()
  })
})
