// Surface fire behaviour at a point: Rothermel (1972) spread with wind and slope combined as vectors
// (BehavePlus; Andrews 2018 ch. 6), the optional effective-wind-speed limit, the fire ellipse, Byram's
// (1959) fireline intensity and flame length.
import { describeFuelbed, noWindNoSlopeRosFtPerMin, type Fuelbed, type FuelMoisturePercent } from './fuelbed'
import {
  ellipseRates,
  lengthToWidthRatio,
  rosAtAngleFtPerMin,
  type LengthToWidthFormula,
} from './fireEllipse'
import type { FuelModel } from './fuelModels'
import { FT_PER_MIN_PER_MPH, degToRad, normalizeDeg, radToDeg } from './units'
import { windAdjustmentFactor, type Canopy } from './windAdjustmentFactor'

export interface SurfaceFireInputs {
  readonly fuelModel: FuelModel
  readonly moisture: FuelMoisturePercent
  readonly windSpeedMph: number
  /** Height the wind speed was measured at: at midflame, or 20 ft above the vegetation. */
  readonly windHeight: 'midflame' | '20ft'
  /** Direction the wind blows from, degrees clockwise from north. */
  readonly windFromDeg: number
  /** Slope steepness, rise over run × 100. */
  readonly slopePercent: number
  /** Direction the slope faces (downslope), degrees clockwise from north. */
  readonly aspectDeg: number
  readonly canopy?: Canopy
  /** A wind adjustment factor to use instead of computing one (20-ft wind only). */
  readonly windAdjustmentFactor?: number
  /** Cap the effective wind speed at 0.9 × reaction intensity (Rothermel 1972). Off by default, as in BehavePlus 6 and behave. */
  readonly applyWindSpeedLimit?: boolean
  readonly lengthToWidthFormula?: LengthToWidthFormula
}

export interface SurfaceFire {
  readonly fuelbed: Fuelbed
  readonly windAdjustmentFactor: number
  readonly sheltered: boolean
  readonly midflameWindSpeedMph: number
  readonly noWindNoSlopeRosFtPerMin: number
  /** φ_w and φ_s. */
  readonly windFactor: number
  readonly slopeFactor: number
  /** Head fire spread rate in the direction of maximum spread. */
  readonly rosFtPerMin: number
  readonly backingRosFtPerMin: number
  readonly flankingRosFtPerMin: number
  /** Direction the head fire travels, degrees clockwise from north. */
  readonly maxSpreadDirDeg: number
  readonly effectiveWindSpeedMph: number
  readonly windSpeedLimitMph: number
  readonly windLimitExceeded: boolean
  readonly lengthToWidth: number
  readonly eccentricity: number
  readonly reactionIntensityBtuPerFt2PerMin: number
  /** I_R ξ (1 + φ_w + φ_s), BTU/ft²/min. */
  readonly heatSourceBtuPerFt2PerMin: number
  /** t_r = 384/σ (Anderson 1969), min. */
  readonly residenceTimeMin: number
  readonly heatPerUnitAreaBtuPerFt2: number
  readonly firelineIntensityBtuPerFtPerS: number
  readonly flameLengthFt: number
  readonly backingFirelineIntensityBtuPerFtPerS: number
  readonly flankingFirelineIntensityBtuPerFtPerS: number
}

/** Byram (1959) flame length, ft, from fireline intensity in BTU/ft/s: 0.45 I^0.46. */
export function byramFlameLengthFt(firelineIntensityBtuPerFtPerS: number): number {
  return firelineIntensityBtuPerFtPerS > 1e-7 ? 0.45 * firelineIntensityBtuPerFtPerS ** 0.46 : 0
}

/** Rothermel's wind-factor coefficients C, B, E for a characteristic SAV. */
function windCoefficients(sigma: number): { c: number; b: number; e: number } {
  return {
    c: 7.47 * Math.exp(-0.133 * sigma ** 0.55),
    b: 0.02526 * sigma ** 0.54,
    e: 0.715 * Math.exp(-0.000359 * sigma),
  }
}

function midflameWind(
  inputs: SurfaceFireInputs,
  depthFt: number,
): { waf: number; sheltered: boolean; mph: number } {
  if (inputs.windHeight === 'midflame') return { waf: 1, sheltered: false, mph: inputs.windSpeedMph }
  if (inputs.windAdjustmentFactor !== undefined)
    return {
      waf: inputs.windAdjustmentFactor,
      sheltered: false,
      mph: inputs.windAdjustmentFactor * inputs.windSpeedMph,
    }
  const adj = windAdjustmentFactor(depthFt, inputs.canopy)
  return { waf: adj.factor, sheltered: adj.sheltered, mph: adj.factor * inputs.windSpeedMph }
}

/** Surface fire behaviour in the direction of maximum spread. */
export function surfaceFire(inputs: SurfaceFireInputs): SurfaceFire {
  const bed = describeFuelbed(inputs.fuelModel, inputs.moisture)
  const wind = midflameWind(inputs, bed.depthFt)
  const r0 = noWindNoSlopeRosFtPerMin(bed)
  const sigma = bed.characteristicSavPerFt
  const { c, b, e } = windCoefficients(sigma)
  const midflameFtPerMin = wind.mph * FT_PER_MIN_PER_MPH
  const ratioE = bed.relativePackingRatio > 0 ? bed.relativePackingRatio ** -e : 0
  const phiW = bed.burnable && midflameFtPerMin > 1e-7 ? c * midflameFtPerMin ** b * ratioE : 0
  const tanSlope = Math.max(0, inputs.slopePercent) / 100
  const phiS = bed.burnable ? 5.275 * bed.packingRatio ** -0.3 * tanSlope * tanSlope : 0

  // Vector sum of the wind and slope rates, in a frame whose x axis points upslope.
  const windToRelUpslope = degToRad(inputs.windFromDeg - inputs.aspectDeg)
  const slopeRate = r0 * phiS
  const windRate = r0 * phiW
  const x = slopeRate + windRate * Math.cos(windToRelUpslope)
  const y = windRate * Math.sin(windToRelUpslope)
  let ros = r0 + Math.hypot(x, y)
  let azimuthFromUpslope = normalizeDeg(radToDeg(Math.atan2(y, x)))
  if (azimuthFromUpslope < 0.5) azimuthFromUpslope = 0 // BehavePlus rounds a heading just clockwise of upslope to upslope
  const maxSpreadDirDeg = normalizeDeg(azimuthFromUpslope + inputs.aspectDeg + 180)

  // Effective wind speed: the wind alone that would give the combined φ (Rothermel 1972, eq. 87).
  const phiE = r0 > 0 ? ros / r0 - 1 : 0
  let effectiveFtPerMin = phiE > 0 && ratioE > 0 ? (phiE / ratioE / c) ** (1 / b) : 0
  const limitFtPerMin = 0.9 * bed.reactionIntensityBtuPerFt2PerMin
  let windLimitExceeded = false
  if (inputs.applyWindSpeedLimit && effectiveFtPerMin > limitFtPerMin) {
    windLimitExceeded = true
    effectiveFtPerMin = limitFtPerMin
    ros = r0 * (1 + c * limitFtPerMin ** b * ratioE)
  }
  const effectiveWindSpeedMph = effectiveFtPerMin / FT_PER_MIN_PER_MPH
  const ellipse = ellipseRates(ros, lengthToWidthRatio(effectiveWindSpeedMph, inputs.lengthToWidthFormula))

  const residenceTimeMin = sigma > 1e-7 ? 384 / sigma : 0
  const hpa = bed.reactionIntensityBtuPerFt2PerMin * residenceTimeMin
  const intensity = (rosFtPerMin: number) => (rosFtPerMin * hpa) / 60
  const fli = intensity(ros)
  return {
    fuelbed: bed,
    windAdjustmentFactor: wind.waf,
    sheltered: wind.sheltered,
    midflameWindSpeedMph: wind.mph,
    noWindNoSlopeRosFtPerMin: r0,
    windFactor: phiW,
    slopeFactor: phiS,
    rosFtPerMin: ros,
    backingRosFtPerMin: ellipse.backingRosFtPerMin,
    flankingRosFtPerMin: ellipse.flankingRosFtPerMin,
    maxSpreadDirDeg,
    effectiveWindSpeedMph,
    windSpeedLimitMph: limitFtPerMin / FT_PER_MIN_PER_MPH,
    windLimitExceeded,
    lengthToWidth: ellipse.lengthToWidth,
    eccentricity: ellipse.eccentricity,
    reactionIntensityBtuPerFt2PerMin: bed.reactionIntensityBtuPerFt2PerMin,
    heatSourceBtuPerFt2PerMin:
      bed.reactionIntensityBtuPerFt2PerMin * bed.propagatingFluxRatio * (1 + phiW + phiS),
    residenceTimeMin,
    heatPerUnitAreaBtuPerFt2: hpa,
    firelineIntensityBtuPerFtPerS: fli,
    flameLengthFt: byramFlameLengthFt(fli),
    backingFirelineIntensityBtuPerFtPerS: intensity(ellipse.backingRosFtPerMin),
    flankingFirelineIntensityBtuPerFtPerS: intensity(ellipse.flankingRosFtPerMin),
  }
}

/**
 * Spread rate toward `azimuthDeg` (clockwise from north): normal to the perimeter (`perimeter`, the
 * BehavePlus default) or along the ray from the ignition point (`ignitionPoint`).
 */
export function surfaceRosTowardFtPerMin(
  fire: SurfaceFire,
  azimuthDeg: number,
  mode: 'perimeter' | 'ignitionPoint' = 'perimeter',
): number {
  const rates = {
    headRosFtPerMin: fire.rosFtPerMin,
    backingRosFtPerMin: fire.backingRosFtPerMin,
    flankingRosFtPerMin: fire.flankingRosFtPerMin,
    lengthToWidth: fire.lengthToWidth,
    eccentricity: fire.eccentricity,
  }
  return rosAtAngleFtPerMin(rates, azimuthDeg - fire.maxSpreadDirDeg, mode)
}
