import { legendById, mapLayerById, type LayerDefinition, type Legend } from '../../shared/config'

/** Legend of a sub-layer's map layer, if it has one. */
export function subLayerLegend(layer: LayerDefinition, subLayerId: string | undefined): Legend | undefined {
  const sub = layer.subLayers?.find((s) => s.id === subLayerId)
  const legendId = sub ? mapLayerById(sub.mapLayer).legend : undefined
  return legendId ? legendById(legendId) : undefined
}

/** Legends of the layer's own (non-sub-layer) map layers, each once, in config order. */
export function baseLegends(layer: LayerDefinition): Legend[] {
  const subMapLayers = new Set((layer.subLayers ?? []).map((s) => s.mapLayer))
  const ids = layer.layers
    .filter((id) => !subMapLayers.has(id) || layer.subLayerControl === 'checkbox')
    .map((id) => mapLayerById(id).legend)
    .filter((id): id is string => Boolean(id))
  return [...new Set(ids)].map((id) => legendById(id))
}
