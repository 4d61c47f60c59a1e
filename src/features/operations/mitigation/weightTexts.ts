import type { MitigationFactorInfo } from './mitigationApi'

const WEIGHT = /^(?:\d+(?:\.\d*)?|\.\d+)$/

/** A weight typed by the user: a plain decimal, 0 or more; null when it is not one. */
export function parseWeightText(text: string): number | null {
  const t = text.trim()
  if (!WEIGHT.test(t)) return null
  const n = Number(t)
  return Number.isFinite(n) ? n : null
}

/** Each factor's input text: what was typed, else the weight in use (defaults when none chosen). */
export function weightTexts(
  factors: readonly MitigationFactorInfo[],
  typed: Readonly<Record<string, string>>,
  weights: Readonly<Record<string, number>> | null,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const f of factors) out[f.id] = typed[f.id] ?? String(weights?.[f.id] ?? f.defaultWeight)
  return out
}

/** The weights after typing `text` into `factorId`, or null when the text is not a weight. */
export function withTypedWeight(
  factors: readonly MitigationFactorInfo[],
  weights: Readonly<Record<string, number>> | null,
  factorId: string,
  text: string,
): Record<string, number> | null {
  const value = parseWeightText(text)
  if (value === null) return null
  const next: Record<string, number> = {}
  for (const f of factors) next[f.id] = weights?.[f.id] ?? f.defaultWeight
  next[factorId] = value
  return next
}

/** Whether `weights` (null: defaults) differ from the config defaults. */
export function differsFromDefaults(
  factors: readonly MitigationFactorInfo[],
  weights: Readonly<Record<string, number>> | null,
): boolean {
  return weights !== null && factors.some((f) => (weights[f.id] ?? f.defaultWeight) !== f.defaultWeight)
}
