import { describe, expect, it } from 'vitest'
import { layerById, mapLayerById } from '../../shared/config'
import { hiddenLayerIds, layerSourceIds, unavailableSources, type SourceStatus } from './sourceStatus'

const status = (id: string, state: SourceStatus['state']): SourceStatus => ({
  id,
  kind: 'pmtiles',
  host: 'cdn.example.com',
  state,
  ...(state === 'unavailable' ? { message: 'cannot reach upstream' } : {}),
})

describe('a layer row’s source status', () => {
  const layer = layerById('psps')
  const own = mapLayerById(layer.layers[0]!).source

  it('joins the layer to the sources of its map layers', () => {
    expect(layerSourceIds(layer)).toContain(own)
  })

  it('lists only the layer’s own sources that are unavailable', () => {
    expect(unavailableSources(layer, [status(own, 'unavailable'), status('other', 'unavailable')])).toEqual([
      status(own, 'unavailable'),
    ])
    expect(unavailableSources(layer, [status(own, 'ok'), status('other', 'unavailable')])).toEqual([])
    expect(unavailableSources(layer, [status(own, 'unknown')])).toEqual([])
  })
})

describe('layers of a source switched on by a variable', () => {
  const gatedLayer = layerById('utility_gis_poles')
  const source = mapLayerById(gatedLayer.layers[0]!).source
  const withConfigured = (configured: boolean): SourceStatus => ({
    ...status(source, 'unknown'),
    configured,
  })

  it('are hidden before the server answers and while it says the source is not configured', () => {
    expect(hiddenLayerIds([])).toContain('utility_gis_poles')
    expect(hiddenLayerIds([withConfigured(false)])).toContain('utility_gis_poles')
    expect(hiddenLayerIds([])).not.toContain('psps')
  })

  it('are offered once the server says the source is configured', () => {
    const hidden = hiddenLayerIds([withConfigured(true)])
    expect(hidden).not.toContain('utility_gis_poles')
    expect(hidden).toContain('utility_gis_zones')
  })
})
