import { appConfig, type LayersConfig, type MapLayer, resolveColor } from '../../shared/config'
import { zonedInstant } from '../../shared/time/zonedInstant'
import { styleLayer } from './mapLibreStyle'
import { tileTemplate } from './tileJson'
import type { Tileset } from './tilesetCatalog'

/** The style holding every vector layer of the web map. */
export const ALL_LAYERS_STYLE = 'emberline'

export interface StyleContext {
  base: string
  layers: LayersConfig
  tilesets: readonly Tileset[]
  shared: ReadonlySet<string>
  /** Demo mode: age-based scales are measured from the demo reference date (as the web map does). */
  demo: boolean
  nowMs?: number
}

/** The map layers drawn from vector tiles (line, fill, circle, icon paint over an MVT source). */
export function vectorMapLayers(
  layers: LayersConfig,
  list: readonly Tileset[],
): { mapLayer: MapLayer; tileset: Tileset }[] {
  return layers.mapLayers.flatMap((m) => {
    const t = list.find((x) => x.id === m.source && x.kind === 'vector')
    return t && ['line', 'fill', 'circle', 'icon'].includes(m.paint.type) ? [{ mapLayer: m, tileset: t }] : []
  })
}

/** Style ids and titles: one per vector map layer, and ALL_LAYERS_STYLE. */
export function styleIds(layers: LayersConfig, list: readonly Tileset[]): { id: string; title: string }[] {
  return [
    { id: ALL_LAYERS_STYLE, title: 'All Emberline vector layers' },
    ...vectorMapLayers(layers, list).map(({ mapLayer, tileset }) => ({
      id: mapLayer.id,
      title: `${tileset.title} (${mapLayer.id})`,
    })),
  ]
}

/** A legend from config with its colour names resolved to '#rrggbb[aa]'. */
function resolvedLegend(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(resolvedLegend)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === 'color' && typeof v === 'string' ? resolveColor(v) : resolvedLegend(v),
    ]),
  )
}

/**
 * A MapLibre / Mapbox GL style (version 8) of one vector map layer, or of all of them, compiled
 * from the same YAML paint settings the web map draws with (colours, rules, scales, widths,
 * opacity) and carrying the layer's legend in `metadata`.
 */
export function styleDocument(id: string, ctx: StyleContext): Record<string, unknown> {
  const all = vectorMapLayers(ctx.layers, ctx.tilesets)
  const chosen = id === ALL_LAYERS_STYLE ? all : all.filter((x) => x.mapLayer.id === id)
  if (chosen.length === 0) throw new Error(`no vector map layer '${id}'`)
  const nowMs =
    ctx.nowMs ??
    (ctx.demo ? zonedInstant(appConfig.demo.referenceDate, 12, appConfig.demo.timeZone) : Date.now())
  const sources: Record<string, unknown> = {}
  const legends: Record<string, unknown> = {}
  for (const { mapLayer, tileset } of chosen) {
    sources[tileset.id] ??= {
      type: 'vector',
      tiles: [tileTemplate(ctx.base, tileset)],
      minzoom: tileset.minzoom,
      maxzoom: tileset.maxzoom,
    }
    const legend = mapLayer.legend ? ctx.layers.legends.find((l) => l.id === mapLayer.legend) : undefined
    if (legend) legends[mapLayer.id] = resolvedLegend(legend)
  }
  return {
    version: 8,
    name: id === ALL_LAYERS_STYLE ? 'Emberline' : `Emberline ${id}`,
    metadata: {
      'emberline:generated': new Date().toISOString(),
      'emberline:clock': new Date(nowMs).toISOString(),
      'emberline:legends': legends,
    },
    sources,
    layers: chosen.map(({ mapLayer, tileset }) =>
      styleLayer({
        mapLayer,
        layers: ctx.layers,
        sourceId: tileset.id,
        sourceLayer: tileset.dataset?.id ?? tileset.id,
        minzoom: tileset.minzoom,
        nowMs,
      }),
    ),
  }
}
