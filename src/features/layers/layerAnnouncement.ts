import type { LayerDefinition } from '../../shared/config'
import type { LayerUiState } from './layerState'

type Announced = Pick<LayerUiState, 'visible' | 'selectedSubLayer'>

/**
 * What a screen reader is told after a change of the layer state: each layer turned on or off
 * ("Red Flag Warnings turned on") and each newly chosen sub-layer ("PSPS: Wind Speed selected"),
 * in sidebar order; '' when nothing a listener needs changed.
 */
export function layerAnnouncement(
  before: Announced,
  after: Announced,
  layers: readonly LayerDefinition[],
): string {
  const parts: string[] = []
  for (const layer of layers) {
    const was = before.visible[layer.id] ?? false
    const is = after.visible[layer.id] ?? false
    if (was !== is) parts.push(`${layer.name} turned ${is ? 'on' : 'off'}`)
    const chosen = after.selectedSubLayer[layer.id]
    if (chosen && chosen !== before.selectedSubLayer[layer.id]) {
      const sub = layer.subLayers?.find((s) => s.id === chosen)
      if (sub) parts.push(`${layer.name}: ${sub.name} selected`)
    }
  }
  return parts.join('. ')
}
