// The elliptical fire shape of a surface fire: length-to-width ratio from the effective wind speed
// (Anderson 1983 as BehavePlus 6 applies it), eccentricity, backing and flanking rates and the rate at
// any angle from the heading (Catchpole et al. 1982, as BehavePlus).
import { degToRad } from './units'

/**
 * Which length-to-width equation to use. `anderson1983` (the default) is BehavePlus 6's
 * 0.936 e^(0.2566 U) + 0.461 e^(−0.1548 U) − 0.397 with U in mph. `behaveLibrary` reproduces the
 * current firelab behave library, which since 2022 applies FlamMap's coefficients (0.1147, 0.0692) to U
 * in mph; it exists so that library's published test values can be checked, not for analysis.
 */
export type LengthToWidthFormula = 'anderson1983' | 'behaveLibrary'

export const MAX_LENGTH_TO_WIDTH = 8

/** Surface fire length-to-width ratio from the effective wind speed (mph); 1 in calm air, at most 8. */
export function lengthToWidthRatio(
  effectiveWindSpeedMph: number,
  formula: LengthToWidthFormula = 'anderson1983',
): number {
  if (effectiveWindSpeedMph <= 1e-7) return 1
  const [b, c] = formula === 'anderson1983' ? [0.2566, 0.1548] : [0.1147, 0.0692]
  const lw =
    0.936 * Math.exp(b * effectiveWindSpeedMph) + 0.461 * Math.exp(-c * effectiveWindSpeedMph) - 0.397
  return Math.min(MAX_LENGTH_TO_WIDTH, lw)
}

/** Crown fire length-to-width ratio from the 20-ft wind (mph): 1 + 0.125 U (Rothermel 1991, eq. 10). */
export function crownLengthToWidthRatio(windSpeed20ftMph: number): number {
  return windSpeed20ftMph > 1e-7 ? 1 + 0.125 * windSpeed20ftMph : 1
}

export function eccentricity(lengthToWidth: number): number {
  const x = lengthToWidth * lengthToWidth - 1
  return x > 0 ? Math.sqrt(x) / lengthToWidth : 0
}

export interface EllipseRates {
  readonly headRosFtPerMin: number
  readonly backingRosFtPerMin: number
  readonly flankingRosFtPerMin: number
  readonly lengthToWidth: number
  readonly eccentricity: number
}

/** Backing = R (1 − e)/(1 + e); flanking = half the width the length and ratio give. */
export function ellipseRates(headRosFtPerMin: number, lengthToWidth: number): EllipseRates {
  const e = eccentricity(lengthToWidth)
  const backing = (headRosFtPerMin * (1 - e)) / (1 + e)
  const flanking = (headRosFtPerMin + backing) / lengthToWidth / 2
  return {
    headRosFtPerMin,
    backingRosFtPerMin: backing,
    flankingRosFtPerMin: flanking,
    lengthToWidth,
    eccentricity: e,
  }
}

/**
 * Spread rate at `angleFromHeadDeg` from the heading. `perimeter`: normal to the perimeter at that
 * point of the ellipse (Catchpole et al. 1982; BehavePlus "fire perimeter"); `ignitionPoint`: along a
 * ray from the ignition point, R (1 − e)/(1 − e cos θ).
 */
export function rosAtAngleFtPerMin(
  rates: EllipseRates,
  angleFromHeadDeg: number,
  mode: 'perimeter' | 'ignitionPoint',
): number {
  const r = rates.headRosFtPerMin
  if (r <= 0) return 0
  let beta = Math.abs(angleFromHeadDeg) % 360
  if (beta > 180) beta = 360 - beta
  const rad = degToRad(beta)
  if (mode === 'ignitionPoint')
    return (r * (1 - rates.eccentricity)) / (1 - rates.eccentricity * Math.cos(rad))
  const f = (r + rates.backingRosFtPerMin) / 2
  const g = r - f
  const h = rates.flankingRosFtPerMin
  const cos = Math.cos(rad)
  const sin = Math.sin(rad)
  return g * cos + Math.sqrt(f * f * cos * cos + h * h * sin * sin)
}
