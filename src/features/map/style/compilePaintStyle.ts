import { catalog, resolveColor, scaleById, sourceById } from '../catalog/catalog'
import { PAINT_TYPES } from '../catalog/catalogTypes'
import type { FeatureFilter, MapCatalog, MapLayerConfig, PaintType } from '../catalog/catalogTypes'
import { matchesAny, matchesFilter, type FeatureProps } from './featureFilter'
import { scaleInput, scaleStep } from './scaleColor'

/** A map layer's paint settings resolved from config into plain values and per-feature functions. */
export interface CompiledPaintStyle {
  readonly mapLayerId: string
  readonly type: PaintType
  /** Layer name inside the vector tile. */
  readonly dataLayer: string
  readonly width: number
  readonly hitWidth: number
  readonly radius: number
  readonly hitRadius: number
  /** Paint opacity from config (fill 0.5, raster 1…), before the user's intensity. */
  readonly opacity: number
  /** Hex colour for one feature; `nowMs` dates age-based scales. */
  readonly colorOf: (props: FeatureProps, nowMs: number) => string
  /** Icon name and colour for one feature (icon paint). */
  readonly iconOf: (props: FeatureProps) => { readonly icon: string; readonly color: string }
  /** Whether the feature is drawn (sub-layer filters, click overrides); undefined draws all. */
  readonly filter?: (props: FeatureProps) => boolean
}

export interface CompileOptions {
  /** Keep features matching any of these (e.g. the checked forecast percentiles). */
  readonly anyOf?: readonly FeatureFilter[]
  /** Keep only features matching all of these (e.g. the clicked PSPS line's identifier). */
  readonly allOf?: readonly FeatureFilter[]
}

export function parsePaintType(type: string): PaintType {
  const found = PAINT_TYPES.find((t) => t === type)
  if (!found) throw new Error(`Unknown paint type '${type}' in config`)
  return found
}

const DEFAULTS: Record<PaintType, { width: number; radius: number; opacity: number }> = {
  line: { width: 2, radius: 0, opacity: 1 },
  fill: { width: 1, radius: 0, opacity: 0.5 },
  circle: { width: 0, radius: 5, opacity: 1 },
  icon: { width: 0, radius: 9, opacity: 1 },
  raster: { width: 0, radius: 0, opacity: 1 },
  particles: { width: 0, radius: 0, opacity: 1 },
}

function colorFunction(
  mapLayer: MapLayerConfig,
  c: MapCatalog,
): (props: FeatureProps, nowMs: number) => string {
  const paint = mapLayer.paint
  const base = resolveColor(paint.color ?? 'grey5')
  const rules = (paint.rules ?? []).map((r) => ({ when: r.when, color: resolveColor(r.color) }))
  const scale = paint.scale ? scaleById(paint.scale, c) : undefined
  const scaleColors = scale ? scale.steps.map((s) => resolveColor(s.color)) : []
  return (props, nowMs) => {
    for (const rule of rules) if (matchesFilter(props, rule.when)) return rule.color
    if (scale) {
      const step = scaleStep(scale, scaleInput(scale, props, nowMs))
      return step ? (scaleColors[scale.steps.indexOf(step)] ?? base) : base
    }
    return base
  }
}

function iconFunction(c: MapCatalog): CompiledPaintStyle['iconOf'] {
  const unknown = { icon: c.icons.unknown.icon, color: resolveColor(c.icons.unknown.color) }
  const byType = new Map(
    c.icons.types.map((t) => [t.type.toLowerCase(), { icon: t.icon, color: resolveColor(t.color) }]),
  )
  return (props) => byType.get(String(props[c.icons.field] ?? '').toLowerCase()) ?? unknown
}

/**
 * Compiles one map layer's `paint` from config into a style: the single place YAML paint settings
 * (theme colour names, rules, scales, widths, hit areas) become values the renderer draws with.
 */
export function compilePaintStyle(
  mapLayer: MapLayerConfig,
  options: CompileOptions = {},
  c: MapCatalog = catalog,
): CompiledPaintStyle {
  const type = parsePaintType(mapLayer.paint.type)
  const source = sourceById(mapLayer.source, c)
  const d = DEFAULTS[type]
  const paint = mapLayer.paint
  const width = paint.width ?? d.width
  const radius = paint.radius ?? d.radius
  const anyOf = options.anyOf ?? []
  const allOf = options.allOf ?? []
  const filtered = anyOf.length > 0 || allOf.length > 0
  return {
    mapLayerId: mapLayer.id,
    type,
    dataLayer: mapLayer.sourceLayer ?? source.dataset ?? source.id,
    width,
    hitWidth: paint.hitWidth ?? Math.max(width, 20),
    radius,
    hitRadius: paint.hitRadius ?? Math.max(radius, 12),
    opacity: paint.opacity ?? d.opacity,
    colorOf: colorFunction(mapLayer, c),
    iconOf: iconFunction(c),
    filter: filtered
      ? (props) => matchesAny(props, anyOf) && allOf.every((f) => matchesFilter(props, f))
      : undefined,
  }
}
