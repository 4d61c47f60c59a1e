/**
 * The one colour-ramp module: a config legend (gradient stops or classes) becomes the colour of
 * a value. The server's PNG tile renderer and the browser's legends both use it, so the map and
 * the sidebar can never disagree. Pure: no React, Leaflet or Fastify.
 */
import type { ClassesLegend, GradientLegend, GradientStop, LegendClass } from './config'

/** Red, green, blue, alpha; each 0..255. */
export type Rgba = readonly [number, number, number, number]

/** Turns a colour name from config (theme path such as `windSpeed.10`, or a hex) into `#rrggbb[aa]`. */
export type ColorResolver = (name: string) => string

/** The legends that colour values: a gradient's stops or a class list (the generated legend kinds). */
export type RampLegend = Pick<GradientLegend, 'type' | 'stops'> | Pick<ClassesLegend, 'type' | 'classes'>

/** A compiled legend: the colour of a value, or null where nothing is drawn (no data, unknown class). */
export interface ColorRamp {
  readonly kind: 'gradient' | 'classes'
  colorOf(value: number): Rgba | null
  /**
   * Writes the colour of a value as 4 bytes at `offset` (the renderer's allocation-free path;
   * same result as colorOf). Returns false, writing nothing, where nothing is drawn.
   */
  paint(value: number, out: Uint8Array, offset: number): boolean
}

function write(c: Rgba | null | undefined, out: Uint8Array, offset: number): boolean {
  if (!c || c[3] === 0) return false
  out[offset] = c[0]
  out[offset + 1] = c[1]
  out[offset + 2] = c[2]
  out[offset + 3] = c[3]
  return true
}

export const TRANSPARENT: Rgba = [0, 0, 0, 0]

const HEX = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i

/** `#rgb`, `#rrggbb` or `#rrggbbaa` → Rgba. Throws on anything else. */
export function parseHexColor(hex: string): Rgba {
  if (!HEX.test(hex)) throw new Error(`not a hex colour: ${hex}`)
  const body = hex.slice(1)
  const full = body.length === 3 ? [...body].map((c) => c + c).join('') : body
  const byte = (i: number): number => parseInt(full.slice(i * 2, i * 2 + 2), 16)
  return [byte(0), byte(1), byte(2), full.length === 8 ? byte(3) : 255]
}

/** Rgba → CSS `rgba(r, g, b, a)`. */
export function rgbaToCss(rgba: Rgba): string {
  const [r, g, b, a] = rgba
  return `rgba(${r}, ${g}, ${b}, ${Number((a / 255).toFixed(3))})`
}

/**
 * Mixes two colours at t in 0..1 with premultiplied alpha, as CSS gradients do, so a stop
 * such as `#00000000` fades the next colour in rather than darkening it.
 */
export function mixRgba(a: Rgba, b: Rgba, t: number): Rgba {
  const alpha = a[3] + (b[3] - a[3]) * t
  if (alpha <= 0) return TRANSPARENT
  const channel = (i: 0 | 1 | 2): number =>
    Math.round((a[i] * a[3] + (b[i] * b[3] - a[i] * a[3]) * t) / alpha)
  return [channel(0), channel(1), channel(2), Math.round(alpha)]
}

function gradientRamp(stops: readonly GradientStop[], resolve: ColorResolver): ColorRamp {
  if (stops.length === 0) throw new Error('gradient legend has no stops')
  const values = stops.map((s) => s.value)
  const colors = stops.map((s) => parseHexColor(resolve(s.color)))
  const last = stops.length - 1
  const v = Float64Array.from(values)
  // Premultiplied channels per stop, for the allocation-free paint().
  const pm = Float64Array.from(colors.flatMap((c) => [c[0] * c[3], c[1] * c[3], c[2] * c[3], c[3]]))
  return {
    kind: 'gradient',
    paint(value, out, offset) {
      if (Number.isNaN(value)) return false
      if (value <= v[0]!) return write(colors[0], out, offset)
      if (value >= v[last]!) return write(colors[last], out, offset)
      let i = 1
      while (v[i]! < value) i++
      const t = (value - v[i - 1]!) / (v[i]! - v[i - 1]!)
      const a = (i - 1) * 4
      const b = i * 4
      const alpha = pm[a + 3]! + (pm[b + 3]! - pm[a + 3]!) * t
      if (alpha <= 0) return false
      out[offset] = Math.round((pm[a]! + (pm[b]! - pm[a]!) * t) / alpha)
      out[offset + 1] = Math.round((pm[a + 1]! + (pm[b + 1]! - pm[a + 1]!) * t) / alpha)
      out[offset + 2] = Math.round((pm[a + 2]! + (pm[b + 2]! - pm[a + 2]!) * t) / alpha)
      out[offset + 3] = Math.round(alpha)
      return true
    },
    colorOf(value) {
      if (Number.isNaN(value)) return null
      if (value <= values[0]!) return colors[0]!
      if (value >= values[last]!) return colors[last]!
      let i = 1
      while (values[i]! < value) i++
      const lo = values[i - 1]!
      const t = (value - lo) / (values[i]! - lo)
      return mixRgba(colors[i - 1]!, colors[i]!, t)
    },
  }
}

function classesRamp(classes: readonly LegendClass[], resolve: ColorResolver): ColorRamp {
  const byValue = new Map<number, Rgba>(classes.map((c) => [c.value, parseHexColor(resolve(c.color))]))
  return {
    kind: 'classes',
    paint(value, out, offset) {
      return !Number.isNaN(value) && write(byValue.get(Math.round(value)), out, offset)
    },
    colorOf(value) {
      if (Number.isNaN(value)) return null
      return byValue.get(Math.round(value)) ?? null
    },
  }
}

/** Compiles a `gradient` or `classes` legend (exhaustive over the legend kinds that colour values). */
export function colorRamp(legend: RampLegend, resolve: ColorResolver): ColorRamp {
  switch (legend.type) {
    case 'gradient':
      return gradientRamp(legend.stops, resolve)
    case 'classes':
      return classesRamp(legend.classes, resolve)
    default: {
      const unhandled: never = legend
      throw new Error(`Unhandled legend ${JSON.stringify(unhandled)}`)
    }
  }
}

/**
 * CSS `linear-gradient(to right, ...)` for a gradient legend. `spacing: 'even'` places stops at
 * equal distances (the sidebar's labelled bar); `'value'` places them by value.
 */
export function cssGradient(
  legend: Pick<GradientLegend, 'stops'>,
  resolve: ColorResolver,
  spacing: 'even' | 'value' = 'even',
): string {
  const stops = legend.stops
  if (stops.length === 0) throw new Error('cssGradient needs a gradient legend with stops')
  const first = stops[0]!.value
  const span = stops[stops.length - 1]!.value - first
  const parts = stops.map((s, i) => {
    const at =
      spacing === 'even'
        ? stops.length === 1
          ? 0
          : i / (stops.length - 1)
        : span === 0
          ? 0
          : (s.value - first) / span
    return `${rgbaToCss(parseHexColor(resolve(s.color)))} ${Number((at * 100).toFixed(2))}%`
  })
  return `linear-gradient(to right, ${parts.join(', ')})`
}
