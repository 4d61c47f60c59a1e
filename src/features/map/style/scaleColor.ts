import type { Scale, ScaleStep } from '../../../shared/config'
import type { FeatureProps } from './featureFilter'

const HOUR_MS = 3_600_000

/**
 * The value a scale classifies: the field itself (`kind: value`) or, for `kind: ageHours`, the hours
 * between the field's timestamp and `nowMs`.
 */
export function scaleInput(scale: Scale, props: FeatureProps, nowMs: number): number | null {
  const raw = props[scale.field]
  if (raw === undefined || raw === null || raw === '') return null
  if (scale.kind === 'ageHours') {
    const at = typeof raw === 'number' ? raw : Date.parse(String(raw))
    return Number.isFinite(at) ? (nowMs - at) / HOUR_MS : null
  }
  const value = Number(raw)
  return Number.isFinite(value) ? value : null
}

/** The first step whose bounds (`min` inclusive, `max` inclusive) hold the value; a step without bounds catches the rest. */
export function scaleStep(scale: Scale, value: number | null): ScaleStep | undefined {
  if (value === null) return scale.steps.find((s) => s.min === undefined && s.max === undefined)
  return scale.steps.find(
    (s) => (s.min === undefined || value >= s.min) && (s.max === undefined || value <= s.max),
  )
}
