import { describe, expect, it } from 'vitest'
import { createActor } from 'xstate'
import { layerById } from '../../shared/config'
import { pspsSubLayerMachine, type SubLayerUpdate } from './pspsSubLayerMachine'

const psps = layerById('psps')
const input = { layer: psps.id, subLayers: (psps.subLayers ?? []).map((s) => s.id) }

describe('pspsSubLayerMachine', () => {
  it('emits the chosen sub-layer, the sub-layer list and the layer', () => {
    const actor = createActor(pspsSubLayerMachine, { input }).start()
    const seen: SubLayerUpdate[] = []
    actor.on('update', (e) => seen.push(e))
    actor.send({ type: 'select', subLayer: 'psps_relative_humidity' })
    expect(seen).toEqual([
      { type: 'update', subLayer: 'psps_relative_humidity', subLayers: input.subLayers, layer: 'psps' },
    ])
    expect(seen[0]?.subLayers).toHaveLength(7)
  })

  it('ignores unknown sub-layers', () => {
    const actor = createActor(pspsSubLayerMachine, { input }).start()
    const seen: SubLayerUpdate[] = []
    actor.on('update', (e) => seen.push(e))
    actor.send({ type: 'select', subLayer: 'not_a_layer' })
    expect(seen).toHaveLength(0)
  })
})
