import { appConfig } from '../config'

/** One row of appConfig.riskLabels: scores at or above `min` get `label`. */
export interface RiskLabelRule {
  readonly min: number
  readonly label: string
}

/**
 * The risk label of a 0..1 score (spec §9): the rule with the highest `min` the score reaches.
 * Scores below every rule (or not a number) get the lowest rule's label.
 */
export function riskLabel(score: number, rules: readonly RiskLabelRule[] = appConfig.riskLabels): string {
  const ordered = [...rules].sort((a, b) => b.min - a.min)
  const lowest = ordered[ordered.length - 1]
  if (!lowest) throw new Error('riskLabels must hold at least one rule')
  if (Number.isNaN(score)) return lowest.label
  return (ordered.find((rule) => score >= rule.min) ?? lowest).label
}
