import { describe, expect, it } from 'vitest'
import { layersConfig, tablesConfig } from '../../generated/config'
import {
  buildLookups,
  defaultListLayers,
  getCategory,
  getDataset,
  getGrid,
  getLayer,
  getLegend,
  getMapLayer,
  getScale,
  getSource,
  getTable,
  mapLayerDataset,
  sourceDataset,
} from './catalogueLookups'

describe('catalogue lookups', () => {
  it('finds every kind of item by id', () => {
    expect(getLayer('psps')?.name).toBe('PSPS')
    expect(getMapLayer('epss_line')?.source).toBe('epss_lines_mvt')
    expect(getSource('smoke_png')?.type).toBe('png')
    expect(getDataset('buildings')?.fields.map((f) => f.name)).toContain('area_ft2')
    expect(getGrid('vegetation')?.interpolation).toBe('nearest')
    expect(getLegend('vegetation')?.type).toBe('classes')
    expect(getScale('hotspot_age')?.kind).toBe('ageHours')
    expect(getTable('epss')?.name).toBe('Fire Risk 7-Day Watch')
    expect(getCategory('weather')?.name).toBe('Weather')
  })

  it('answers undefined for unknown ids', () => {
    expect(getLayer('no_such_layer')).toBeUndefined()
    expect(getTable('')).toBeUndefined()
  })

  it('lists the 17 default layers of the spec and Observed Smoke, without Wind Vectors and Population Density', () => {
    const ids = defaultListLayers().map((l) => l.id)
    expect(ids).toHaveLength(18)
    expect(ids).toContain('observed_smoke')
    expect(ids).not.toContain('wind_vectors')
    expect(ids).not.toContain('population_density')
  })

  it('finds the dataset behind vector and wind sources but not grids', () => {
    const mvt = getSource('buildings_mvt')
    const png = getSource('slope_png')
    const wind = getSource('wind_vectors_grid')
    expect(mvt && sourceDataset(mvt)?.id).toBe('buildings')
    expect(wind && sourceDataset(wind)?.id).toBe('wind_vectors')
    expect(png && sourceDataset(png)).toBeUndefined()
    const ml = getMapLayer('thermal_hotspots')
    expect(ml && mapLayerDataset(ml)?.id).toBe('thermal_hot_spots')
  })

  it('builds lookups over a catalogue passed in', () => {
    const extra = { ...layersConfig, categories: [...layersConfig.categories, { id: 'extra', name: 'Extra', icon: 'star', row: 4 }] }
    const l = buildLookups(extra, tablesConfig)
    expect(l.categories.get('extra')?.row).toBe(4)
    expect(l.categories.size).toBe(layersConfig.categories.length + 1)
  })
})
