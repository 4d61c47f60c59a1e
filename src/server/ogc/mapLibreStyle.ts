import {
  type FeatureCondition,
  type LayersConfig,
  type MapLayer,
  resolveColor,
  type Scale,
} from '../../shared/config'

/** A MapLibre / Mapbox GL expression (JSON). */
export type Expression = readonly unknown[] | string | number | boolean

const HOUR_MS = 3_600_000

/** ISO text of an instant, without zero milliseconds (so it compares like the stored timestamps). */
function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z')
}

const isNumber = (field: string): Expression => ['==', ['typeof', ['get', field]], 'number']
const present = (field: string): Expression => ['all', ['has', field], ['!=', ['get', field], null]]

const NUMERIC_OPS: Record<string, string> = { lt: '<', lte: '<=', gt: '>', gte: '>=' }

/** A config condition `{ field, op, value }` as the web map evaluates it (featureFilter.matchesFilter). */
export function conditionExpression(
  c: FeatureCondition | { field: string; op: string; value: number | string },
): Expression {
  const value = String(c.value)
  const equal: Expression = ['==', ['to-string', ['get', c.field]], value]
  switch (c.op) {
    case 'eq':
      return ['all', present(c.field), equal]
    case 'ne':
    case 'neq':
      return ['all', present(c.field), ['!', equal]]
    default: {
      const op = NUMERIC_OPS[c.op]
      if (!op) throw new Error(`unknown condition operator '${c.op}'`)
      return ['all', isNumber(c.field), [op, ['get', c.field], Number(c.value)]]
    }
  }
}

/**
 * A stepped scale as a `case` expression: `kind: value` compares the field; `kind: ageHours`
 * compares the ISO timestamp with the instants `nowMs` minus the bounds (string order = time order).
 */
export function scaleExpression(scale: Scale, nowMs: number, fallback: string): Expression {
  const open = scale.steps.find((s) => s.min === undefined && s.max === undefined)
  const missing = open ? resolveColor(open.color) : fallback
  const out: unknown[] = ['case']
  const f = scale.field
  if (scale.kind === 'value') {
    out.push(['!', isNumber(f)], missing)
    for (const s of scale.steps) {
      if (s.min === undefined && s.max === undefined) continue
      const parts: Expression[] = []
      if (s.min !== undefined) parts.push(['>=', ['get', f], s.min])
      if (s.max !== undefined) parts.push(['<=', ['get', f], s.max])
      out.push(['all', ...parts], resolveColor(s.color))
    }
  } else {
    // age ≤ max ⇔ time ≥ now − max; age ≥ min ⇔ time ≤ now − min.
    out.push(['!=', ['typeof', ['get', f]], 'string'], missing)
    for (const s of scale.steps) {
      if (s.min === undefined && s.max === undefined) continue
      const parts: Expression[] = []
      if (s.max !== undefined) parts.push(['>=', ['get', f], isoSeconds(nowMs - s.max * HOUR_MS)])
      if (s.min !== undefined) parts.push(['<=', ['get', f], isoSeconds(nowMs - s.min * HOUR_MS)])
      out.push(['all', ...parts], resolveColor(s.color))
    }
  }
  out.push(missing)
  return out
}

/** The colour of a feature: rules first, then the scale, else the base colour (compilePaintStyle.colorOf). */
export function colorExpression(mapLayer: MapLayer, layers: LayersConfig, nowMs: number): Expression {
  const paint = mapLayer.paint as {
    color?: string
    scale?: string
    rules?: readonly { when: FeatureCondition; color: string }[]
  }
  const base = resolveColor(paint.color ?? 'grey5')
  const scale = paint.scale ? layers.scales.find((s) => s.id === paint.scale) : undefined
  const tail = scale ? scaleExpression(scale, nowMs, base) : base
  const rules = paint.rules ?? []
  if (rules.length === 0) return tail
  return ['case', ...rules.flatMap((r) => [conditionExpression(r.when), resolveColor(r.color)]), tail]
}

/** Icon layers: the icon colour by type (case-insensitive), the unknown colour otherwise. */
function iconColorExpression(layers: LayersConfig): Expression {
  const icons = layers.icons
  const cases = icons.types.flatMap((t) => [
    ['==', ['downcase', ['to-string', ['get', icons.field]]], t.type.toLowerCase()],
    resolveColor(t.color),
  ])
  return ['case', ...cases, resolveColor(icons.unknown.color)]
}

/** '#rrggbbaa' → colour and opacity MapLibre understands ('#rrggbb' plus the alpha folded into opacity). */
function splitAlpha(color: Expression, opacity: number): { color: Expression; opacity: number } {
  if (typeof color === 'string' && /^#[0-9a-f]{8}$/i.test(color)) {
    return { color: color.slice(0, 7), opacity: opacity * (parseInt(color.slice(7), 16) / 255) }
  }
  return { color, opacity }
}

/** Converts '#rrggbbaa' literals inside an expression to rgba() (MapLibre reads 8-digit hex too, GL JS 1 does not). */
function rgbaLiterals(e: Expression): Expression {
  if (typeof e === 'string' && /^#[0-9a-f]{8}$/i.test(e)) {
    const n = (i: number) => parseInt(e.slice(i, i + 2), 16)
    return `rgba(${n(1)}, ${n(3)}, ${n(5)}, ${Math.round((n(7) / 255) * 1000) / 1000})`
  }
  return Array.isArray(e) ? e.map((x: Expression) => rgbaLiterals(x)) : e
}

export interface StyleLayerInput {
  mapLayer: MapLayer
  layers: LayersConfig
  /** MapLibre source id and the vector tile layer (the dataset id). */
  sourceId: string
  sourceLayer: string
  minzoom: number
  nowMs: number
}

/** The MapLibre style layer of one vector map layer (line, fill, circle; icons as coloured circles). */
export function styleLayer(input: StyleLayerInput): Record<string, unknown> {
  const { mapLayer, layers } = input
  const paint = mapLayer.paint as { type: string; width?: number; radius?: number; opacity?: number }
  const common = {
    id: mapLayer.id,
    source: input.sourceId,
    'source-layer': input.sourceLayer,
    // No layer maxzoom: above the source's maxzoom MapLibre overzooms its tiles, as the web map does.
    minzoom: input.minzoom,
    metadata: { 'emberline:paint': mapLayer.paint },
  }
  switch (paint.type) {
    case 'line': {
      const c = splitAlpha(colorExpression(mapLayer, layers, input.nowMs), paint.opacity ?? 1)
      return {
        ...common,
        type: 'line',
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: {
          'line-color': rgbaLiterals(c.color),
          'line-width': paint.width ?? 2,
          'line-opacity': c.opacity,
        },
      }
    }
    case 'fill': {
      const c = splitAlpha(colorExpression(mapLayer, layers, input.nowMs), paint.opacity ?? 0.5)
      return {
        ...common,
        type: 'fill',
        paint: { 'fill-color': rgbaLiterals(c.color), 'fill-opacity': c.opacity },
      }
    }
    case 'circle': {
      const c = splitAlpha(colorExpression(mapLayer, layers, input.nowMs), paint.opacity ?? 1)
      return {
        ...common,
        type: 'circle',
        paint: {
          'circle-color': rgbaLiterals(c.color),
          'circle-radius': paint.radius ?? 5,
          'circle-opacity': c.opacity,
          'circle-stroke-color': '#111418',
          'circle-stroke-width': 0,
        },
      }
    }
    case 'icon':
      return {
        ...common,
        type: 'circle',
        paint: {
          'circle-color': rgbaLiterals(iconColorExpression(layers)),
          'circle-radius': paint.radius ?? 9,
          'circle-stroke-color': '#111418',
          'circle-stroke-width': 1.5,
        },
      }
    default:
      throw new Error(`map layer ${mapLayer.id}: paint type '${paint.type}' has no vector style`)
  }
}
