import { layersConfig, resolveColor } from '../../../shared/config'
import type {
  CategoryConfig,
  LayerDefinition,
  LegendConfig,
  MapCatalog,
  MapLayerConfig,
  ScaleConfig,
  SourceConfig,
} from './catalogTypes'

/** The layer catalogue as the map reads it (config/layers.yaml, compiled). */
export const catalog: MapCatalog = layersConfig

function byId<T extends { readonly id: string }>(items: readonly T[], id: string, kind: string): T {
  const found = items.find((item) => item.id === id)
  if (!found) throw new Error(`Unknown ${kind} '${id}' in config/layers.yaml`)
  return found
}

export const mapLayerById = (id: string, c: MapCatalog = catalog): MapLayerConfig =>
  byId(c.mapLayers, id, 'map layer')
export const sourceById = (id: string, c: MapCatalog = catalog): SourceConfig => byId(c.sources, id, 'source')
export const scaleById = (id: string, c: MapCatalog = catalog): ScaleConfig => byId(c.scales, id, 'scale')
export const legendById = (id: string, c: MapCatalog = catalog): LegendConfig => byId(c.legends, id, 'legend')
export const layerById = (id: string, c: MapCatalog = catalog): LayerDefinition => byId(c.layers, id, 'layer')
export const categoryById = (id: string, c: MapCatalog = catalog): CategoryConfig =>
  byId(c.categories, id, 'category')

/** Theme colour names and hex colours → hex (the shared resolver from src/shared/config). */
export { resolveColor }

/** Tile URL template for a source: `/api/tiles/<path or demoPath>/<mvt|png>/{z}/{x}/{y}`. */
export function tileUrlTemplate(source: SourceConfig, demo: boolean): string {
  const path = demo && source.demoPath ? source.demoPath : source.path
  const kind = source.type === 'png' ? 'png' : 'mvt'
  return `/api/tiles/${path}/${kind}/{z}/{x}/{y}`
}
