import {
  gridById,
  layersConfig,
  legendById,
  mapLayerById,
  sourceById,
  type LayerDefinition,
  type Legend,
} from '../../shared/config'

/** The parts of the layer state the briefing reads (the share URL's view). */
export interface BriefingLayerState {
  readonly visible: Readonly<Record<string, boolean>>
  readonly selectedSubLayer: Readonly<Record<string, string>>
  readonly checkedSubLayers: Readonly<Record<string, readonly string[]>>
}

/** What a visible layer draws from: datasets (vector sources) and grids (raster sources). */
export interface LayerSources {
  readonly datasets: readonly string[]
  readonly grids: readonly { id: string; hourly: boolean }[]
}

const unique = <T>(items: readonly T[]) => [...new Set(items)]

/** The map layers a layer draws now: its own, and of its sub-layers only those selected or checked. */
export function drawnMapLayers(layer: LayerDefinition, state: BriefingLayerState): string[] {
  const subs = layer.subLayers ?? []
  const control = layer.subLayerControl ?? 'none'
  const subMapLayers = new Set(subs.map((s) => s.mapLayer))
  const chosen =
    control === 'radio'
      ? subs.filter((s) => s.id === state.selectedSubLayer[layer.id])
      : control === 'checkbox'
        ? subs.filter((s) => (state.checkedSubLayers[layer.id] ?? []).includes(s.id))
        : subs
  return unique([...layer.layers.filter((id) => !subMapLayers.has(id)), ...chosen.map((s) => s.mapLayer)])
}

/** The legends the sidebar shows for the layer in this state (panel line legend, sub-layers, its own). */
export function layerLegends(layer: LayerDefinition, state: BriefingLayerState): Legend[] {
  const ids = [
    layer.panel?.lineLegend,
    ...drawnMapLayers(layer, state).map((id) => mapLayerById(id).legend),
  ].filter((id): id is string => typeof id === 'string')
  return unique(ids).map((id) => legendById(id))
}

/** The datasets and grids behind what the layer draws. */
export function layerSources(layer: LayerDefinition, state: BriefingLayerState): LayerSources {
  const sources = drawnMapLayers(layer, state).map((id) => sourceById(mapLayerById(id).source))
  const datasets = unique(sources.flatMap((s) => ('dataset' in s ? [s.dataset] : [])))
  const grids = unique(sources.flatMap((s) => (s.type === 'png' ? [s.grid] : []))).map((id) => ({
    id,
    hourly: (gridById(id).hourly ?? 0) > 1,
  }))
  return { datasets, grids }
}

/** The layers visible in this state, in catalogue order. */
export function visibleLayers(state: BriefingLayerState): LayerDefinition[] {
  return layersConfig.layers.filter((l) => state.visible[l.id])
}
