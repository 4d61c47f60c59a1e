import { describe, expect, it } from 'vitest'
import { layersConfig } from '../../shared/config'
import { layerAnnouncement } from './layerAnnouncement'
import { initialLayerState, layerReducer } from './layerState'

const layers = layersConfig.layers
const start = initialLayerState(layers)
const layer = (id: string) => {
  const found = layers.find((l) => l.id === id)
  if (!found) throw new Error(`no layer ${id} in config`)
  return found
}

describe('layerAnnouncement', () => {
  it('says nothing when nothing a listener needs changed', () => {
    expect(layerAnnouncement(start, start, layers)).toBe('')
    const opened = layerReducer(start, { type: 'toggleOpen', layerId: 'psps' })
    expect(layerAnnouncement(start, opened, layers)).toBe('')
  })

  it('names the layer turned on or off', () => {
    const hidden = layers.find((l) => !(start.visible[l.id] ?? false))
    if (!hidden) throw new Error('config has no layer hidden by default')
    const on = layerReducer(start, { type: 'setVisible', layerId: hidden.id, visible: true })
    expect(layerAnnouncement(start, on, layers)).toBe(`${hidden.name} turned on`)
    const off = layerReducer(on, { type: 'setVisible', layerId: hidden.id, visible: false })
    expect(layerAnnouncement(on, off, layers)).toBe(`${hidden.name} turned off`)
  })

  it('names the sub-layer chosen', () => {
    const psps = layer('psps')
    const other = psps.subLayers?.find((s) => s.id !== start.selectedSubLayer.psps)
    if (!other) throw new Error('PSPS has a single sub-layer')
    const next = layerReducer(start, { type: 'selectSubLayer', layerId: 'psps', subLayerId: other.id })
    expect(layerAnnouncement(start, next, layers)).toBe(`${psps.name}: ${other.name} selected`)
  })

  it('joins several changes in sidebar order', () => {
    const [a, b] = layers.filter((l) => !(start.visible[l.id] ?? false))
    if (!a || !b) throw new Error('config has fewer than two hidden layers')
    const both = layerReducer(layerReducer(start, { type: 'setVisible', layerId: b.id, visible: true }), {
      type: 'setVisible',
      layerId: a.id,
      visible: true,
    })
    expect(layerAnnouncement(start, both, layers)).toBe(`${a.name} turned on. ${b.name} turned on`)
  })
})
