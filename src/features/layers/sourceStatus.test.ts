import { describe, expect, it } from 'vitest'
import { layerById, mapLayerById } from '../../shared/config'
import { layerSourceIds, unavailableSources, type SourceStatus } from './sourceStatus'

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
