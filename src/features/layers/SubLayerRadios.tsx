import { Radio, RadioGroup } from '@blueprintjs/core'
import { useActorRef } from '@xstate/react'
import { useEffect } from 'react'
import type { LayerDefinition } from '../../shared/config'
import { LegendView } from './LegendView'
import { subLayerLegend } from './layerLegends'
import { useLayerState } from './LayerStateContext'
import { pspsSubLayerMachine } from './pspsSubLayerMachine'

/** The radio group of a layer's sub-layers (PSPS); only the selected one shows its gradient legend. */
export function SubLayerRadios({ layer }: { layer: LayerDefinition }) {
  const { state, dispatch } = useLayerState()
  const selected = state.selectedSubLayer[layer.id] ?? layer.selectedSubLayer ?? ''
  const choices = (layer.subLayers ?? []).filter((s) => s.inControl !== false)
  const actor = useActorRef(pspsSubLayerMachine, {
    input: { layer: layer.id, subLayers: (layer.subLayers ?? []).map((s) => s.id) },
  })
  useEffect(() => {
    const sub = actor.on('update', (e) =>
      dispatch({ type: 'selectSubLayer', layerId: e.layer, subLayerId: e.subLayer }),
    )
    return () => sub.unsubscribe()
  }, [actor, dispatch])
  const legend = subLayerLegend(layer, selected)
  return (
    <RadioGroup
      className="el-sublayer-radios"
      name={`${layer.id}-sublayer`}
      selectedValue={selected}
      onChange={(e) => actor.send({ type: 'select', subLayer: e.currentTarget.value })}
    >
      {choices.flatMap((s) => [
        <Radio key={s.id} value={s.id} label={s.name} />,
        s.id === selected && legend ? (
          <div key={`${s.id}-legend`} className="el-sublayer-legend">
            <LegendView legend={legend} hideTitle />
          </div>
        ) : null,
      ])}
    </RadioGroup>
  )
}
