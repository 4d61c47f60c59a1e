import { describe, expect, it } from 'vitest'
import {
  envGatedLayerIds,
  gridById,
  layerById,
  layersConfig,
  legendById,
  mapLayerById,
  scaleById,
  sourceById,
  sourceOfType,
} from '.'

describe('catalogue lookups', () => {
  it('finds every kind of entry by id, typed by the generated unions', () => {
    expect(layerById('psps').name).toBe('PSPS')
    expect(mapLayerById('epss_line').source).toBe('epss_lines_mvt')
    expect(sourceById('smoke_png').type).toBe('png')
    expect(gridById('vegetation').interpolation).toBe('nearest')
    expect(legendById('vegetation').type).toBe('classes')
    expect(scaleById('hotspot_age').kind).toBe('ageHours')
  })

  it('throws on an id config does not declare (the compiler checks every reference)', () => {
    expect(() => mapLayerById('no_such_layer')).toThrow("Unknown map layer 'no_such_layer' in config/layers.yaml")
    expect(() => legendById('')).toThrow("Unknown legend '' in config/layers.yaml")
  })

  it('narrows a source to the kind a paint draws, and refuses another kind', () => {
    expect(sourceOfType('smoke_png', 'png').grid).toBeTypeOf('string')
    expect(sourceOfType('wind_vectors_grid', 'wind').dataset).toBe('wind_vectors')
    expect(() => sourceOfType('smoke_png', 'mvt')).toThrow("Source 'smoke_png' in config/layers.yaml is png, not mvt")
  })

  it('lists the 17 default layers of the spec and Observed Smoke, without Wind Vectors and Population Density', () => {
    // Layers of the utility's own servers are offered only while their variable is set.
    const gated = envGatedLayerIds()
    const ids = layersConfig.layers.filter((l) => l.inDefaultList && !gated.has(l.id)).map((l) => l.id)
    expect(ids).toHaveLength(18)
    expect(ids).toContain('observed_smoke')
    expect(ids).not.toContain('wind_vectors')
    expect(ids).not.toContain('population_density')
  })
})
