// Crown fire: initiation (Van Wagner 1977), spread (Rothermel 1991) and the surface / passive / active
// classes with the crown fraction burned of FlamMap's Finney (1998) method (Van Wagner 1993).
import { findFuelModel } from './fuelModels'
import { crownLengthToWidthRatio } from './fireEllipse'
import type { FuelMoisturePercent } from './fuelbed'
import { surfaceFire, type SurfaceFire } from './surfaceFire'
import { BTU_PER_FT_PER_S_PER_KW_PER_M, FT_PER_M, KG_PER_M3_PER_LB_PER_FT3 } from './units'

export interface CanopyFuel {
  readonly canopyHeightFt: number
  readonly canopyBaseHeightFt: number
  readonly canopyBulkDensityKgPerM3: number
  readonly foliarMoisturePercent: number
}

/** 0 unburnable, 1 surface, 2 passive crown, 3 active crown (FlamMap's fire type codes). */
export type FireType = 0 | 1 | 2 | 3

/** Canopy fuel heat content of BehavePlus's Rothermel crown figures, BTU/lb. */
const BEHAVEPLUS_CANOPY_HEAT_BTU_PER_LB = 8000
/** FlamMap's heat of combustion for crown fuel, 18,000 kJ/kg, in BTU/lb. */
const FLAMMAP_CANOPY_HEAT_BTU_PER_LB = (18000 * 0.45359237) / 1.05505585

/** Van Wagner (1977) critical surface fireline intensity for crown ignition, BTU/ft/s. */
export function criticalSurfaceIntensityBtuPerFtPerS(
  canopyBaseHeightFt: number,
  foliarMoisturePercent: number,
): number {
  const cbhM = Math.max(0.1, canopyBaseHeightFt / FT_PER_M)
  const fmc = Math.max(30, foliarMoisturePercent)
  const kwPerM = (0.01 * cbhM * (460 + 25.9 * fmc)) ** 1.5
  return kwPerM * BTU_PER_FT_PER_S_PER_KW_PER_M
}

/** Van Wagner (1977) critical crown spread rate for active crowning, 3.0 / CBD m/min, in ft/min. */
export function criticalActiveCrownRosFtPerMin(canopyBulkDensityKgPerM3: number): number {
  return canopyBulkDensityKgPerM3 > 1e-7 ? (3 / canopyBulkDensityKgPerM3) * FT_PER_M : 0
}

/** Slope and wind direction for a crown fire that spreads over terrain (FlamMap's vectoring). */
export interface CrownTerrain {
  readonly slopePercent: number
  readonly aspectDeg: number
  readonly windFromDeg: number
}

/**
 * Rothermel (1991) fully active crown fire: 3.34 × the spread rate of fuel model 10 with the same fuel
 * moistures and a wind adjustment factor of 0.4 on the 20-ft wind. Without `terrain` on flat ground with
 * the wind upslope, as BehavePlus and behave; with it, wind and slope vectored as FlamMap does
 * (its `VecCrown`).
 */
export function rothermelCrownFire(
  moisture: FuelMoisturePercent,
  windSpeed20ftMph: number,
  terrain?: CrownTerrain,
): { rosFtPerMin: number; maxSpreadDirDeg: number } {
  const model10 = findFuelModel(10)
  if (!model10) throw new Error('fuel model 10 is missing from config/fuel-models.yaml')
  const fm10 = surfaceFire({
    fuelModel: model10,
    moisture,
    windSpeedMph: windSpeed20ftMph,
    windHeight: '20ft',
    windAdjustmentFactor: 0.4,
    windFromDeg: terrain?.windFromDeg ?? 0,
    slopePercent: terrain?.slopePercent ?? 0,
    aspectDeg: terrain?.aspectDeg ?? 0,
  })
  return { rosFtPerMin: 3.34 * fm10.rosFtPerMin, maxSpreadDirDeg: fm10.maxSpreadDirDeg }
}

/** The flat-ground Rothermel (1991) crown spread rate, ft/min (see rothermelCrownFire). */
export function rothermelCrownRosFtPerMin(moisture: FuelMoisturePercent, windSpeed20ftMph: number): number {
  return rothermelCrownFire(moisture, windSpeed20ftMph).rosFtPerMin
}

/** Thomas (1963) flame length for crown fires, ft: 0.2 I^(2/3), I in BTU/ft/s. */
export function thomasFlameLengthFt(firelineIntensityBtuPerFtPerS: number): number {
  return firelineIntensityBtuPerFtPerS > 0 ? 0.2 * firelineIntensityBtuPerFtPerS ** (2 / 3) : 0
}

export interface CrownFire {
  readonly fireType: FireType
  readonly criticalSurfaceIntensityBtuPerFtPerS: number
  /** Surface spread rate at which crowning starts: 60 I_0 / HPA. */
  readonly criticalSurfaceRosFtPerMin: number
  readonly criticalActiveCrownRosFtPerMin: number
  /** The crown spread rate an active crown fire needs in FlamMap's Finney method: R_0 + 0.9 (R'_active − R_0). */
  readonly activeThresholdRosFtPerMin: number
  /** Rothermel (1991) fully active crown spread rate (3.34 R_10), over the terrain when given. */
  readonly crownRosFtPerMin: number
  /** Heading of a crowning fire: fuel model 10's over the terrain when given, else the surface fire's. */
  readonly crownMaxSpreadDirDeg: number
  readonly crownFractionBurned: number
  readonly canopyFuelLoadLbPerFt2: number
  readonly crownLengthToWidth: number
  /** Final behaviour of the class the fire falls in. */
  readonly rosFtPerMin: number
  readonly heatPerUnitAreaBtuPerFt2: number
  readonly firelineIntensityBtuPerFtPerS: number
  readonly flameLengthFt: number
  /** Rothermel's own crown fire figures (BehavePlus's Crown module): 3.34 R_10 with surface + canopy HPA. */
  readonly rothermelCrownFirelineIntensityBtuPerFtPerS: number
  readonly rothermelCrownFlameLengthFt: number
  /** BehavePlus's Rothermel classification: surface, torching, conditional crown or crowning. */
  readonly rothermelClass: 'surface' | 'torching' | 'conditional' | 'crowning'
}

/**
 * Van Wagner's (1993) crown fraction burned as FARSITE and FlamMap's Finney (1998) method use it:
 * 0 at the critical surface rate R_0, 0.9 at R_0 + 0.9 (R'_active − R_0), rising as 1 − e^(−a (R − R_0)).
 */
export function crownFractionBurned(
  surfaceRosFtPerMin: number,
  criticalSurfaceRosFtPerMin: number,
  criticalActiveRosFtPerMin: number,
): number {
  if (surfaceRosFtPerMin <= criticalSurfaceRosFtPerMin) return 0
  const span = criticalActiveRosFtPerMin - criticalSurfaceRosFtPerMin
  if (span <= 0) return 1
  const a = -Math.log(0.1) / (0.9 * span)
  return 1 - Math.exp(-a * (surfaceRosFtPerMin - criticalSurfaceRosFtPerMin))
}

/**
 * The crown spread rate FlamMap's Finney method asks of an active crown fire: the rate at which the
 * crown fraction burned reaches 0.9, R_0 + 0.9 (R'_active − R_0), rather than R'_active itself.
 */
export function activeThresholdRosFtPerMin(
  criticalSurfaceRosFtPerMin: number,
  criticalActiveRosFtPerMin: number,
): number {
  return criticalSurfaceRosFtPerMin + 0.9 * (criticalActiveRosFtPerMin - criticalSurfaceRosFtPerMin)
}

/**
 * Crown fire behaviour over a surface fire (computed with a 20-ft wind of `windSpeed20ftMph`), as
 * FlamMap's Finney method (its `CrownFire`, `CrownBurn`, `CrownSpread`): surface fire (1) below Van
 * Wagner's critical intensity; above it a crown fire (2, passive) whose crown spread rate
 * R + CFB (R_crown − R) carries the fire once it reaches R_0 + 0.9 (3.0/CBD − R_0), and which is active
 * (3) once that rate reaches 3.0/CBD; below the threshold it spreads at the surface rate. The heat per
 * unit area is the surface's plus the burned fraction of the canopy load at 18,000 kJ/kg. Pass
 * `terrain` to vector fuel model 10's wind and slope as FlamMap does; without it R_crown is the
 * flat-ground figure of BehavePlus.
 */
export function crownFire(
  surface: SurfaceFire,
  canopy: CanopyFuel,
  moisture: FuelMoisturePercent,
  windSpeed20ftMph: number,
  terrain?: CrownTerrain,
): CrownFire {
  const i0 = criticalSurfaceIntensityBtuPerFtPerS(canopy.canopyBaseHeightFt, canopy.foliarMoisturePercent)
  const rActive = criticalActiveCrownRosFtPerMin(canopy.canopyBulkDensityKgPerM3)
  const flatCrownRos = rothermelCrownRosFtPerMin(moisture, windSpeed20ftMph)
  const overTerrain = terrain ? rothermelCrownFire(moisture, windSpeed20ftMph, terrain) : undefined
  const rCrown = overTerrain?.rosFtPerMin ?? flatCrownRos
  const surfaceHpa = surface.heatPerUnitAreaBtuPerFt2
  const r0 = surfaceHpa > 0 ? (60 * i0) / surfaceHpa : Infinity
  const cbdLbPerFt3 = canopy.canopyBulkDensityKgPerM3 / KG_PER_M3_PER_LB_PER_FT3
  const canopyLoad = cbdLbPerFt3 * Math.max(0, canopy.canopyHeightFt - canopy.canopyBaseHeightFt)
  const rothermelFli = (flatCrownRos / 60) * (surfaceHpa + canopyLoad * BEHAVEPLUS_CANOPY_HEAT_BTU_PER_LB)
  const transition = i0 > 1e-7 ? surface.firelineIntensityBtuPerFtPerS / i0 : 0
  const activeRatio = rActive > 1e-7 ? flatCrownRos / rActive : 0
  const rothermelClass =
    transition < 1 ? (activeRatio < 1 ? 'surface' : 'conditional') : activeRatio < 1 ? 'torching' : 'crowning'
  const base = {
    criticalSurfaceIntensityBtuPerFtPerS: i0,
    criticalSurfaceRosFtPerMin: r0,
    criticalActiveCrownRosFtPerMin: rActive,
    activeThresholdRosFtPerMin: activeThresholdRosFtPerMin(r0, rActive),
    crownRosFtPerMin: rCrown,
    crownMaxSpreadDirDeg: overTerrain?.maxSpreadDirDeg ?? surface.maxSpreadDirDeg,
    canopyFuelLoadLbPerFt2: canopyLoad,
    crownLengthToWidth: crownLengthToWidthRatio(windSpeed20ftMph),
    rothermelCrownFirelineIntensityBtuPerFtPerS: rothermelFli,
    rothermelCrownFlameLengthFt: thomasFlameLengthFt(rothermelFli),
    rothermelClass,
  } as const
  const r = surface.rosFtPerMin
  if (!surface.fuelbed.burnable)
    return {
      ...base,
      fireType: 0,
      crownFractionBurned: 0,
      rosFtPerMin: 0,
      heatPerUnitAreaBtuPerFt2: 0,
      firelineIntensityBtuPerFtPerS: 0,
      flameLengthFt: 0,
    }
  if (canopyLoad <= 0 || surface.firelineIntensityBtuPerFtPerS < i0)
    return {
      ...base,
      fireType: 1,
      crownFractionBurned: 0,
      rosFtPerMin: r,
      heatPerUnitAreaBtuPerFt2: surfaceHpa,
      firelineIntensityBtuPerFtPerS: surface.firelineIntensityBtuPerFtPerS,
      flameLengthFt: surface.flameLengthFt,
    }
  const cfb = crownFractionBurned(r, r0, rActive)
  const hpa = surfaceHpa + cfb * canopyLoad * FLAMMAP_CANOPY_HEAT_BTU_PER_LB
  const crownRos = r + cfb * Math.max(0, rCrown - r)
  const crowning = crownRos >= base.activeThresholdRosFtPerMin
  const ros = crowning ? crownRos : r
  const fli = (ros * hpa) / 60
  return {
    ...base,
    fireType: crowning && crownRos >= rActive ? 3 : 2,
    crownFractionBurned: cfb,
    rosFtPerMin: ros,
    heatPerUnitAreaBtuPerFt2: hpa,
    firelineIntensityBtuPerFtPerS: fli,
    flameLengthFt: thomasFlameLengthFt(fli),
  }
}
