// Crown fire for many cells at once: crownFire()'s classes (FlamMap's Finney method) with the Rothermel
// (1991) crown spread rate — which depends only on the moistures and the 20-ft wind — computed once per
// weather instead of once per cell. The equations are crownFire()'s (src/fire/crownFire.ts), through its
// exported pieces; crownKernel.test.ts holds the two equal.
import {
  activeThresholdRosFtPerMin,
  criticalActiveCrownRosFtPerMin,
  criticalSurfaceIntensityBtuPerFtPerS,
  crownFractionBurned,
  rothermelCrownRosFtPerMin,
  thomasFlameLengthFt,
  type CanopyFuel,
  type FireType,
} from './crownFire'
import { crownLengthToWidthRatio } from './fireEllipse'
import type { FuelMoisturePercent } from './fuelbed'
import { emptyCellSurfaceFire, surfaceAtCell, type FuelKernel } from './fuelKernel'
import { KG_PER_M3_PER_LB_PER_FT3 } from './units'

/** FlamMap's heat of combustion for crown fuel, 18,000 kJ/kg, in BTU/lb (as crownFire()). */
const FLAMMAP_CANOPY_HEAT_BTU_PER_LB = (18000 * 0.45359237) / 1.05505585

/** The per-weather part of crown fire: Rothermel's crown spread rate and the crown ellipse. */
export interface CrownKernel {
  readonly crownRosFtPerMin: number
  readonly crownLengthToWidth: number
}

export function crownKernel(moisture: FuelMoisturePercent, windSpeed20ftMph: number): CrownKernel {
  return {
    crownRosFtPerMin: rothermelCrownRosFtPerMin(moisture, windSpeed20ftMph),
    crownLengthToWidth: crownLengthToWidthRatio(windSpeed20ftMph),
  }
}

/**
 * crownKernel() from fuel model 10's fuel kernel under the same moistures (fuelKernel(model 10, moisture)):
 * no fuelbed per wind speed, for winds that vary from cell to cell.
 */
export function crownKernelFromModel10(model10: FuelKernel, windSpeed20ftMph: number): CrownKernel {
  const fm10 = surfaceAtCell(model10, 0.4 * windSpeed20ftMph, 0, 0, 0, emptyCellSurfaceFire())
  return {
    crownRosFtPerMin: 3.34 * fm10.rosFtPerMin,
    crownLengthToWidth: crownLengthToWidthRatio(windSpeed20ftMph),
  }
}

/** The surface fire a cell's crown fire grows from. */
export interface SurfaceForCrown {
  readonly rosFtPerMin: number
  readonly heatPerUnitAreaBtuPerFt2: number
  readonly firelineIntensityBtuPerFtPerS: number
  readonly flameLengthFt: number
}

export interface CellCrownFire {
  fireType: FireType
  rosFtPerMin: number
  firelineIntensityBtuPerFtPerS: number
  flameLengthFt: number
}

/**
 * crownFire()'s fire type, spread rate, fireline intensity and flame length for a burnable cell (a
 * surface fire that spreads), written into `out`.
 */
export function crownAtCell(
  k: CrownKernel,
  surface: SurfaceForCrown,
  canopy: CanopyFuel,
  out: CellCrownFire,
): CellCrownFire {
  const i0 = criticalSurfaceIntensityBtuPerFtPerS(canopy.canopyBaseHeightFt, canopy.foliarMoisturePercent)
  const cbdLbPerFt3 = canopy.canopyBulkDensityKgPerM3 / KG_PER_M3_PER_LB_PER_FT3
  const canopyLoad = cbdLbPerFt3 * Math.max(0, canopy.canopyHeightFt - canopy.canopyBaseHeightFt)
  const r = surface.rosFtPerMin
  if (canopyLoad <= 0 || surface.firelineIntensityBtuPerFtPerS < i0) {
    out.fireType = 1
    out.rosFtPerMin = r
    out.firelineIntensityBtuPerFtPerS = surface.firelineIntensityBtuPerFtPerS
    out.flameLengthFt = surface.flameLengthFt
    return out
  }
  const surfaceHpa = surface.heatPerUnitAreaBtuPerFt2
  const r0 = surfaceHpa > 0 ? (60 * i0) / surfaceHpa : Infinity
  const rActive = criticalActiveCrownRosFtPerMin(canopy.canopyBulkDensityKgPerM3)
  const cfb = crownFractionBurned(r, r0, rActive)
  const hpa = surfaceHpa + cfb * canopyLoad * FLAMMAP_CANOPY_HEAT_BTU_PER_LB
  const crownRos = r + cfb * Math.max(0, k.crownRosFtPerMin - r)
  // The crown carries the fire from R_0 + 0.9 (R'_active − R_0); it is active once it reaches R'_active.
  const crowning = crownRos >= activeThresholdRosFtPerMin(r0, rActive)
  const ros = crowning ? crownRos : r
  out.fireType = crowning && crownRos >= rActive ? 3 : 2
  out.rosFtPerMin = ros
  out.firelineIntensityBtuPerFtPerS = (ros * hpa) / 60
  out.flameLengthFt = thomasFlameLengthFt(out.firelineIntensityBtuPerFtPerS)
  return out
}
