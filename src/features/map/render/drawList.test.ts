import { describe, expect, it } from 'vitest'
import { layersConfig } from '../../../shared/config'
import { initialLayerState, layerReducer } from '../../layers'
import { drawList, isMapLayerDrawn } from './drawList'

const layers = layersConfig.layers
const base = initialLayerState(layers)
const ids = (s = base) => drawList(s, layers).map((i) => i.mapLayerId)

describe('drawList', () => {
  it('draws the default layers: lines, EPSS score and the PSPS score sub-layer only', () => {
    expect(ids().sort()).toEqual([
      'distribution_lines',
      'epss_line',
      'epss_score',
      'psps_line',
      'psps_score',
      'transmission_lines',
    ])
  })

  it('draws the layers at the top of the sidebar last (on top)', () => {
    const list = ids()
    expect(list.indexOf('epss_line')).toBeGreaterThan(list.indexOf('distribution_lines'))
  })

  it('switches the PSPS raster with the radio choice', () => {
    const s = layerReducer(base, { type: 'selectSubLayer', layerId: 'psps', subLayerId: 'psps_wind_speed' })
    expect(ids(s)).toContain('psps_wind_speed')
    expect(ids(s)).not.toContain('psps_score')
    expect(ids(s)).toContain('psps_line')
  })

  it('scales by layer and sub-layer intensity', () => {
    let s = layerReducer(base, { type: 'setVisible', layerId: 'active_fires', visible: true })
    expect(drawList(s, layers).find((i) => i.mapLayerId === 'active_fires')?.intensity).toBe(0.5)
    s = layerReducer(s, { type: 'setSubLayerIntensity', layerId: 'psps', value: 40 })
    expect(drawList(s, layers).find((i) => i.mapLayerId === 'psps_score')?.intensity).toBeCloseTo(0.4)
  })

  it('filters forecast fire by the checked percentiles', () => {
    let s = layerReducer(base, { type: 'setVisible', layerId: 'forecasted_fire', visible: true })
    s = layerReducer(s, {
      type: 'toggleCheckedSubLayer',
      layerId: 'forecasted_fire',
      subLayerId: 'forecasted_fire_p50',
    })
    const item = drawList(s, layers).find((i) => i.mapLayerId === 'forecasted_fire')
    expect(item?.anyOf.map((f) => f.value)).toEqual([75, 90])
  })

  it('draws a click override last, only while its layer is visible', () => {
    const override = { mapLayerId: 'psps_fire_consequence_mvts', field: 'identifier', value: 'L1' }
    const s = layerReducer(base, { type: 'showOverride', override })
    const list = drawList(s, layers)
    expect(list.at(-1)?.mapLayerId).toBe('psps_fire_consequence_mvts')
    expect(list.at(-1)?.allOf).toEqual([{ field: 'identifier', op: 'eq', value: 'L1' }])
    const hidden = layerReducer(s, { type: 'setVisible', layerId: 'psps', visible: false })
    expect(isMapLayerDrawn(drawList(hidden, layers), 'psps_fire_consequence_mvts')).toBe(false)
  })
})
