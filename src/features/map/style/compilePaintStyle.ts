import {
  layersConfig,
  resolveColor,
  scaleById,
  sourceById,
  type FeatureCondition,
  type FillRule,
  type MapLayer,
  type Paint,
} from '../../../shared/config'
import { matchesAny, matchesFilter, type FeatureProps } from './featureFilter'
import { scaleInput, scaleStep } from './scaleColor'

/** How a map layer is drawn: the paint kinds of config/layers.yaml. */
export type PaintType = Paint['type']

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
  readonly anyOf?: readonly FeatureCondition[]
  /** Keep only features matching all of these (e.g. the clicked PSPS line's identifier). */
  readonly allOf?: readonly FeatureCondition[]
}

/** The settings one paint kind has, with the defaults of the kinds that leave them out. */
interface PaintSettings {
  readonly width: number
  readonly hitWidth?: number
  readonly radius: number
  readonly hitRadius?: number
  readonly opacity: number
  readonly color?: string
  readonly scale?: string
  readonly rules?: readonly FillRule[]
}

/** Exhaustive over the generated paint union: a new paint kind fails to compile until it is handled here. */
function paintSettings(paint: Paint): PaintSettings {
  switch (paint.type) {
    case 'line':
      return { ...paint, radius: 0, opacity: paint.opacity ?? 1 }
    case 'fill':
      return { ...paint, width: 1, radius: 0 }
    case 'circle':
      return { ...paint, width: 0, opacity: paint.opacity ?? 1 }
    case 'icon':
      return { ...paint, width: 0, opacity: 1 }
    case 'raster':
      return { width: 0, radius: 0, opacity: paint.opacity }
    case 'particles':
      return { width: 0, radius: 0, opacity: 1 }
    default: {
      const unhandled: never = paint
      throw new Error(`Unhandled paint ${JSON.stringify(unhandled)}`)
    }
  }
}

function colorFunction(paint: PaintSettings): (props: FeatureProps, nowMs: number) => string {
  const base = resolveColor(paint.color ?? 'grey5')
  const rules = (paint.rules ?? []).map((r) => ({ when: r.when, color: resolveColor(r.color) }))
  const scale = paint.scale ? scaleById(paint.scale) : undefined
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

function iconFunction(): CompiledPaintStyle['iconOf'] {
  const icons = layersConfig.icons
  const unknown = { icon: icons.unknown.icon, color: resolveColor(icons.unknown.color) }
  const byType = new Map(
    icons.types.map((t) => [t.type.toLowerCase(), { icon: t.icon, color: resolveColor(t.color) }]),
  )
  return (props) => byType.get(String(props[icons.field] ?? '').toLowerCase()) ?? unknown
}

/**
 * Compiles one map layer's `paint` from config into a style: the single place YAML paint settings
 * (theme colour names, rules, scales, widths, hit areas) become values the renderer draws with.
 */
export function compilePaintStyle(mapLayer: MapLayer, options: CompileOptions = {}): CompiledPaintStyle {
  const source = sourceById(mapLayer.source)
  const paint = paintSettings(mapLayer.paint)
  const { width, radius } = paint
  const anyOf = options.anyOf ?? []
  const allOf = options.allOf ?? []
  const filtered = anyOf.length > 0 || allOf.length > 0
  return {
    mapLayerId: mapLayer.id,
    type: mapLayer.paint.type,
    dataLayer: mapLayer.sourceLayer ?? ('dataset' in source ? source.dataset : source.id),
    width,
    hitWidth: paint.hitWidth ?? Math.max(width, 20),
    radius,
    hitRadius: paint.hitRadius ?? Math.max(radius, 12),
    opacity: paint.opacity,
    colorOf: colorFunction(paint),
    iconOf: iconFunction(),
    filter: filtered
      ? (props) => matchesAny(props, anyOf) && allOf.every((f) => matchesFilter(props, f))
      : undefined,
  }
}
