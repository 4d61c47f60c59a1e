import { resolveColor, scaleById } from '../map/catalog/catalog'
import type { LegendConfig, LegendStopConfig } from '../map/catalog/catalogTypes'

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
export function gradientTicks(stops: readonly LegendStopConfig[], unit?: string): GradientTick[] {
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

/** The coloured entries of a non-gradient legend (classes, lines, fills, circles, scale steps, icons). */
export function legendSwatches(legend: LegendConfig): LegendSwatch[] {
  if (legend.type === 'classes')
    return (legend.classes ?? []).map((c) => ({
      label: c.label ?? String(c.value),
      color: resolveColor(c.color),
    }))
  if (legend.type === 'scale' && legend.scale) {
    return scaleById(legend.scale).steps.map((s) => ({ label: s.label, color: resolveColor(s.color) }))
  }
  return (legend.items ?? []).map((item) => ({
    label: item.label,
    color: resolveColor(item.color ?? 'grey5'),
    width: item.width,
    icon: item.icon,
  }))
}
