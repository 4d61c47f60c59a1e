import { layersConfig } from '../../generated/config'
import type { Grid, LayerDefinition, Legend, MapLayer, Scale, Source } from '../../generated/types'

const byId = <T extends { readonly id: string }>(list: readonly T[]): ReadonlyMap<string, T> =>
  new Map(list.map((item) => [item.id, item]))

const layers = byId(layersConfig.layers)
const mapLayers = byId(layersConfig.mapLayers)
const sources = byId(layersConfig.sources)
const grids = byId(layersConfig.grids)
const legends = byId(layersConfig.legends)
const scales = byId(layersConfig.scales)

/**
 * The entry an id from config names. The config compiler checks every cross-reference, so an
 * unknown id here is a programming error and throws.
 */
function known<T>(map: ReadonlyMap<string, T>, id: string, kind: string): T {
  const found = map.get(id)
  if (found === undefined) throw new Error(`Unknown ${kind} '${id}' in config/layers.yaml`)
  return found
}

export const layerById = (id: string): LayerDefinition => known(layers, id, 'layer')
export const mapLayerById = (id: string): MapLayer => known(mapLayers, id, 'map layer')
export const sourceById = (id: string): Source => known(sources, id, 'source')
export const gridById = (id: string): Grid => known(grids, id, 'grid')
export const legendById = (id: string): Legend => known(legends, id, 'legend')
export const scaleById = (id: string): Scale => known(scales, id, 'scale')

const isOfType = <K extends Source['type']>(source: Source, type: K): source is Extract<Source, { type: K }> =>
  source.type === type

/** A source of the kind a paint needs (a raster paint draws a png source, particles a wind source…). */
export function sourceOfType<K extends Source['type']>(id: string, type: K): Extract<Source, { type: K }> {
  const source = sourceById(id)
  if (!isOfType(source, type)) throw new Error(`Source '${id}' in config/layers.yaml is ${source.type}, not ${type}`)
  return source
}
