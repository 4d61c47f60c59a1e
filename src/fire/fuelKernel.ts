// Surface fire behaviour for many cells at once: the part of surfaceFire() that depends only on the fuel
// model and the moisture scenario (the fuelbed, R_0, the wind coefficients) is computed once per fuel
// model; per cell only the wind and slope vectoring, the ellipse and Byram's intensity remain. The
// equations are surfaceFire()'s (src/fire/surfaceFire.ts); fuelKernel.test.ts holds the two equal.
import { eccentricity, lengthToWidthRatio, type LengthToWidthFormula } from './fireEllipse'
import { describeFuelbed, noWindNoSlopeRosFtPerMin, type FuelMoisturePercent } from './fuelbed'
import type { FuelModel } from './fuelModels'
import { byramFlameLengthFt } from './surfaceFire'
import { FT_PER_MIN_PER_MPH, degToRad, normalizeDeg, radToDeg } from './units'
import { unshelteredWaf } from './windAdjustmentFactor'

/** What surface spread needs of one fuel model under one moisture scenario. */
export interface FuelKernel {
  readonly model: FuelModel
  readonly burnable: boolean
  readonly depthFt: number
  readonly unshelteredWaf: number
  /** R_0, ft/min. */
  readonly noWindNoSlopeRosFtPerMin: number
  /** Rothermel's wind-factor coefficients C, B, E and (β/β_op)^−E. */
  readonly c: number
  readonly b: number
  readonly ratioE: number
  /** φ_s = slopeCoefficient × tan²θ. */
  readonly slopeCoefficient: number
  readonly heatPerUnitAreaBtuPerFt2: number
  /** The effective-wind-speed limit 0.9 I_R, ft/min (Rothermel 1972). */
  readonly windLimitFtPerMin: number
}

export function fuelKernel(model: FuelModel, moisture: FuelMoisturePercent): FuelKernel {
  const bed = describeFuelbed(model, moisture)
  const sigma = bed.characteristicSavPerFt
  const c = 7.47 * Math.exp(-0.133 * sigma ** 0.55)
  const b = 0.02526 * sigma ** 0.54
  const e = 0.715 * Math.exp(-0.000359 * sigma)
  const residenceTimeMin = sigma > 1e-7 ? 384 / sigma : 0
  return {
    model,
    burnable: bed.burnable,
    depthFt: bed.depthFt,
    unshelteredWaf: unshelteredWaf(bed.depthFt),
    noWindNoSlopeRosFtPerMin: noWindNoSlopeRosFtPerMin(bed),
    c,
    b,
    ratioE: bed.relativePackingRatio > 0 ? bed.relativePackingRatio ** -e : 0,
    slopeCoefficient: bed.burnable ? 5.275 * bed.packingRatio ** -0.3 : 0,
    heatPerUnitAreaBtuPerFt2: bed.reactionIntensityBtuPerFt2PerMin * residenceTimeMin,
    windLimitFtPerMin: 0.9 * bed.reactionIntensityBtuPerFt2PerMin,
  }
}

/** A cell's surface fire; one object is reused across cells (see surfaceAtCell). */
export interface CellSurfaceFire {
  rosFtPerMin: number
  maxSpreadDirDeg: number
  effectiveWindSpeedMph: number
  lengthToWidth: number
  eccentricity: number
  firelineIntensityBtuPerFtPerS: number
  flameLengthFt: number
}

export const emptyCellSurfaceFire = (): CellSurfaceFire => ({
  rosFtPerMin: 0,
  maxSpreadDirDeg: 0,
  effectiveWindSpeedMph: 0,
  lengthToWidth: 1,
  eccentricity: 0,
  firelineIntensityBtuPerFtPerS: 0,
  flameLengthFt: 0,
})

/**
 * surfaceFire() for one cell from its fuel kernel: midflame wind (mph), the direction it blows from, the
 * slope (percent) and the direction it faces. Writes into `out` (no allocation) and answers it. The
 * effective-wind-speed limit is off unless `applyWindSpeedLimit`, as surfaceFire()'s.
 */
export function surfaceAtCell(
  k: FuelKernel,
  midflameWindMph: number,
  windFromDeg: number,
  slopePercent: number,
  aspectDeg: number,
  out: CellSurfaceFire,
  lengthToWidthFormula: LengthToWidthFormula = 'anderson1983',
  applyWindSpeedLimit = false,
): CellSurfaceFire {
  const r0 = k.noWindNoSlopeRosFtPerMin
  const midflameFtPerMin = midflameWindMph * FT_PER_MIN_PER_MPH
  const phiW = k.burnable && midflameFtPerMin > 1e-7 ? k.c * midflameFtPerMin ** k.b * k.ratioE : 0
  const tanSlope = Math.max(0, slopePercent) / 100
  const phiS = k.slopeCoefficient * tanSlope * tanSlope
  const rel = degToRad(windFromDeg - aspectDeg)
  const windRate = r0 * phiW
  const x = r0 * phiS + windRate * Math.cos(rel)
  const y = windRate * Math.sin(rel)
  let ros = r0 + Math.hypot(x, y)
  let azimuthFromUpslope = normalizeDeg(radToDeg(Math.atan2(y, x)))
  if (azimuthFromUpslope < 0.5) azimuthFromUpslope = 0
  const phiE = r0 > 0 ? ros / r0 - 1 : 0
  let effectiveFtPerMin = phiE > 0 && k.ratioE > 0 ? (phiE / k.ratioE / k.c) ** (1 / k.b) : 0
  if (applyWindSpeedLimit && effectiveFtPerMin > k.windLimitFtPerMin) {
    effectiveFtPerMin = k.windLimitFtPerMin
    ros = r0 * (1 + k.c * k.windLimitFtPerMin ** k.b * k.ratioE)
  }
  out.rosFtPerMin = ros
  out.maxSpreadDirDeg = normalizeDeg(azimuthFromUpslope + aspectDeg + 180)
  out.effectiveWindSpeedMph = effectiveFtPerMin / FT_PER_MIN_PER_MPH
  out.lengthToWidth = lengthToWidthRatio(out.effectiveWindSpeedMph, lengthToWidthFormula)
  out.eccentricity = eccentricity(out.lengthToWidth)
  out.firelineIntensityBtuPerFtPerS = (ros * k.heatPerUnitAreaBtuPerFt2) / 60
  out.flameLengthFt = byramFlameLengthFt(out.firelineIntensityBtuPerFtPerS)
  return out
}
