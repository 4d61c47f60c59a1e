import type { FeatureCondition, LayerDefinition, SubLayer } from '../../../shared/config'
import type { LayerUiState } from '../../layers'

/** One map layer to draw now, with the user's intensity and any feature filters. */
export interface DrawItem {
  readonly key: string
  readonly layerId: string
  readonly mapLayerId: string
  /** Intensity factor 0..1 (layer intensity × sub-layer intensity for sub-layers). */
  readonly intensity: number
  readonly anyOf: readonly FeatureCondition[]
  readonly allOf: readonly FeatureCondition[]
}

function subLayerItems(
  layer: LayerDefinition,
  subs: readonly SubLayer[],
  state: LayerUiState,
  mapLayerId: string,
) {
  const control = layer.subLayerControl ?? 'none'
  const shown = subs.filter((s) => s.inControl !== false)
  if (control === 'radio') {
    const selected = shown.find((s) => s.id === state.selectedSubLayer[layer.id])
    return selected ? [{ anyOf: [] }] : []
  }
  if (control === 'checkbox') {
    const checked = shown.filter((s) => (state.checkedSubLayers[layer.id] ?? []).includes(s.id))
    if (checked.length === 0) return []
    const filters = checked.flatMap((s) => (s.filter ? [s.filter] : []))
    return [{ anyOf: filters.length === checked.length ? filters : [] }]
  }
  return shown.length > 0 || !subs.some((s) => s.mapLayer === mapLayerId) ? [{ anyOf: [] }] : []
}

/**
 * The map layers to draw for the sidebar state, bottom first: config order reversed so the layers at
 * the top of the sidebar are drawn on top. A click override (e.g. fire-consequence contours of one
 * PSPS line) is drawn last.
 */
export function drawList(state: LayerUiState, layers: readonly LayerDefinition[]): DrawItem[] {
  const items: DrawItem[] = []
  for (const layer of layers) {
    if (!state.visible[layer.id]) continue
    const intensity = (state.intensity[layer.id] ?? 100) / 100
    const subIntensity = (state.subLayerIntensity[layer.id] ?? 100) / 100
    for (const mapLayerId of layer.layers) {
      const subs = (layer.subLayers ?? []).filter((s) => s.mapLayer === mapLayerId)
      if (subs.length === 0) {
        items.push({
          key: `${layer.id}/${mapLayerId}`,
          layerId: layer.id,
          mapLayerId,
          intensity,
          anyOf: [],
          allOf: [],
        })
        continue
      }
      const radioPick =
        layer.subLayerControl === 'radio'
          ? subs.filter((s) => s.id === state.selectedSubLayer[layer.id])
          : subs
      for (const { anyOf } of subLayerItems(layer, radioPick, state, mapLayerId)) {
        const key = `${layer.id}/${mapLayerId}`
        items.push({
          key,
          layerId: layer.id,
          mapLayerId,
          intensity: intensity * subIntensity,
          anyOf,
          allOf: [],
        })
      }
    }
  }
  items.reverse()
  const o = state.override
  const owner = o && layers.find((l) => state.visible[l.id] && l.layers.includes(o.mapLayerId))
  if (o && owner) {
    const allOf: FeatureCondition[] = [{ field: o.field, op: 'eq', value: o.value }]
    items.push({
      key: `override/${o.mapLayerId}/${o.value}`,
      layerId: owner.id,
      mapLayerId: o.mapLayerId,
      intensity: 1,
      anyOf: [],
      allOf,
    })
  }
  return items
}

/** Whether a map layer is currently drawn (for `clickOverride.whenVisible`). */
export function isMapLayerDrawn(items: readonly DrawItem[], mapLayerId: string): boolean {
  return items.some((i) => i.mapLayerId === mapLayerId)
}
