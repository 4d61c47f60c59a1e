import { layersConfig, themeConfig } from '../../../generated/config'
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

type ColorTree = { readonly [key: string]: string | ColorTree }

/** A theme colour name (`grey4`, `epss`, `fireIntensity.high`, `windSpeed.10`) or a hex colour → hex. */
export function resolveColor(
  name: string,
  theme: { readonly colors: ColorTree; readonly map: ColorTree } = themeConfig,
): string {
  if (name.startsWith('#')) return name
  for (const root of [theme.map, theme.colors]) {
    let node: string | ColorTree | undefined = root[name]
    if (node === undefined) {
      node = root
      for (const part of name.split('.')) {
        node = typeof node === 'object' ? node[part] : undefined
        if (node === undefined) break
      }
    }
    if (typeof node === 'string') return node
  }
  throw new Error(`Unknown theme colour '${name}' in config`)
}

/** Tile URL template for a source: `/api/tiles/<path or demoPath>/<mvt|png>/{z}/{x}/{y}`. */
export function tileUrlTemplate(source: SourceConfig, demo: boolean): string {
  const path = demo && source.demoPath ? source.demoPath : source.path
  const kind = source.type === 'png' ? 'png' : 'mvt'
  return `/api/tiles/${path}/${kind}/{z}/{x}/{y}`
}
