import { describe, expect, it } from 'vitest'
import { layersConfig } from '../../shared/config'
import { drawnMapLayers, layerLegends, layerSources, visibleLayers } from './briefingLayers'

const layer = (id: string) => layersConfig.layers.find((l) => l.id === id)!
const state = {
  visible: { psps: true, transmission_lines: true, forecasted_fire: true },
  selectedSubLayer: { psps: 'psps_wind_gusts' },
  checkedSubLayers: { forecasted_fire: ['forecasted_fire_p90'] },
}

describe('briefing layers', () => {
  it('lists the visible layers in catalogue order', () => {
    expect(visibleLayers(state).map((l) => l.id)).toEqual(['psps', 'transmission_lines', 'forecasted_fire'])
  })

  it('draws only the chosen radio sub-layer and the checked checkbox sub-layers', () => {
    expect(drawnMapLayers(layer('psps'), state)).toEqual(['psps_line', 'psps_wind_gusts'])
    const fire = drawnMapLayers(layer('forecasted_fire'), state)
    expect(fire).toHaveLength(1)
  })

  it("gives the sidebar's legends for the layer in this state", () => {
    const titles = layerLegends(layer('psps'), state).map((l) => l.title ?? l.id)
    expect(titles).toContain('Wind Gusts')
    expect(titles).not.toContain('Hourly Fire Risk Score')
  })

  it('finds the datasets and grids behind what is drawn', () => {
    const psps = layerSources(layer('psps'), state)
    expect(psps.datasets).toEqual(['public_safety_power_shutoff'])
    expect(psps.grids).toEqual([{ id: 'wind_gust_next', hourly: true }])
    expect(layerSources(layer('transmission_lines'), state)).toEqual({
      datasets: ['transmission_lines'],
      grids: [],
    })
  })
})
