import { resolveColor, scaleById, type GradientStop, type Legend } from '../../shared/config'

export interface GradientTick {
  readonly label: string
  /** Position along the bar, 0..100 (stops evenly spaced, as the bar is drawn). */
  readonly percent: number
}

export interface LegendSwatch {
  readonly label: string
  readonly color: string
  readonly width?: number
  readonly icon?: string
}

const trimNumber = (v: number) => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2))))

/** Tick labels under a gradient bar: each stop's label, or its value (the unit after the last). */
export function gradientTicks(stops: readonly GradientStop[], unit?: string): GradientTick[] {
  const n = stops.length
  return stops.map((s, i) => ({
    label:
      s.label ??
      (i === n - 1 && unit && unit !== '%'
        ? `${trimNumber(s.value)} ${unit}`
        : `${trimNumber(s.value)}${unit === '%' ? '%' : ''}`),
    percent: n === 1 ? 0 : Number(((i / (n - 1)) * 100).toFixed(2)),
  }))
}

/** A legend that lists swatches: every legend kind but the gradient bar. */
export type SwatchLegend = Exclude<Legend, { readonly type: 'gradient' }>

/**
 * The coloured entries of a non-gradient legend (classes, lines, fills, circles, scale steps, icons).
 * Exhaustive over the generated legend union: a new legend kind fails to compile until it is listed.
 */
export function legendSwatches(legend: SwatchLegend): LegendSwatch[] {
  switch (legend.type) {
    case 'classes':
      return legend.classes.map((c) => ({ label: c.label, color: resolveColor(c.color) }))
    case 'scale':
      return scaleById(legend.scale).steps.map((s) => ({ label: s.label, color: resolveColor(s.color) }))
    case 'line':
      return legend.items.map((item) => ({
        label: item.label,
        color: resolveColor(item.color),
        width: item.width,
      }))
    case 'fill':
    case 'circle':
      return legend.items.map((item) => ({ label: item.label, color: resolveColor(item.color) }))
    case 'icons':
      return legend.items.map((item) => ({
        label: item.label,
        color: resolveColor(item.color),
        icon: item.icon,
      }))
    default: {
      const unhandled: never = legend
      throw new Error(`Unhandled legend ${JSON.stringify(unhandled)}`)
    }
  }
}
