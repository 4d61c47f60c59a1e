// Fire behaviour on every cell of a landscape (FlamMap's basic fire behaviour run): surface fire from a
// fuel kernel per fuel model (fuelKernel.ts), crown fire where the canopy can carry it (crownFire()).
// Pure: the rasters come in as typed arrays already in the core's units (scripts/fire reads LANDFIRE's).
import type { FireType } from './crownFire'
import { crownAtCell, crownKernelFromModel10, type CellCrownFire, type CrownKernel } from './crownKernel'
import type { LengthToWidthFormula } from './fireEllipse'
import type { FuelMoisturePercent } from './fuelbed'
import { findFuelModel } from './fuelModels'
import { emptyCellSurfaceFire, fuelKernel, surfaceAtCell, type FuelKernel } from './fuelKernel'
import { windAdjustmentFactor } from './windAdjustmentFactor'

/** One landscape, row-major, `width × height` cells. `missing[i] = 1` where an input has no data. */
export interface Landscape {
  readonly width: number
  readonly height: number
  /** Fuel model numbers (config/fuel-models.yaml; LANDFIRE codes). */
  readonly fuelModel: ArrayLike<number>
  readonly slopePercent: ArrayLike<number>
  readonly aspectDeg: ArrayLike<number>
  readonly missing: Uint8Array
  readonly canopyCoverPercent?: ArrayLike<number>
  readonly canopyHeightFt?: ArrayLike<number>
  /** Crown fire needs base height and bulk density (and the canopy height). */
  readonly canopyBaseHeightFt?: ArrayLike<number>
  readonly canopyBulkDensityKgPerM3?: ArrayLike<number>
}

/** Wind as one value for the landscape or one per cell. */
export type PerCell = number | ArrayLike<number>

export interface FireWeather {
  readonly moisture: FuelMoisturePercent
  readonly windSpeedMph: PerCell
  readonly windFromDeg: PerCell
  readonly windHeight: 'midflame' | '20ft'
  readonly foliarMoisturePercent?: number
  readonly lengthToWidthFormula?: LengthToWidthFormula
  /** Cap the effective wind speed at 0.9 I_R, as FlamMap does; off by default, as surfaceFire(). */
  readonly applyWindSpeedLimit?: boolean
}

/** The outputs per cell. Where `missing`, every value is NaN; non-burnable cells spread at 0. */
export interface FireBehaviourGrid {
  readonly width: number
  readonly height: number
  /** Final spread rate (surface, or crown where the fire is an active crown fire), ft/min. */
  readonly rosFtPerMin: Float32Array
  readonly flameLengthFt: Float32Array
  readonly firelineIntensityBtuPerFtPerS: Float32Array
  /** 0 nothing burns, 1 surface, 2 passive crown, 3 active crown; 255 no data. */
  readonly fireType: Uint8Array
  /** Direction the head fire travels, degrees clockwise from north; NaN where nothing burns. */
  readonly maxSpreadDirDeg: Float32Array
  /** Eccentricity of the fire ellipse (the crown ellipse for an active crown fire). */
  readonly eccentricity: Float32Array
}

export const FIRE_TYPE_NODATA = 255

/** FlamMap's default foliar moisture content, %. */
export const DEFAULT_FOLIAR_MOISTURE_PERCENT = 100

const at = (v: PerCell, i: number): number => (typeof v === 'number' ? v : (v[i] ?? NaN))

/** Fire behaviour on every cell. Throws on a fuel model number config/fuel-models.yaml does not hold. */
export function fireBehaviourGrid(land: Landscape, weather: FireWeather): FireBehaviourGrid {
  const n = land.width * land.height
  const out: FireBehaviourGrid = {
    width: land.width,
    height: land.height,
    rosFtPerMin: new Float32Array(n),
    flameLengthFt: new Float32Array(n),
    firelineIntensityBtuPerFtPerS: new Float32Array(n),
    fireType: new Uint8Array(n),
    maxSpreadDirDeg: new Float32Array(n),
    eccentricity: new Float32Array(n),
  }
  const kernels = new Map<number, FuelKernel>()
  const kernelOf = (num: number): FuelKernel => {
    let k = kernels.get(num)
    if (!k) {
      const model = findFuelModel(num)
      if (!model) throw new Error(`fuel model ${num} is not in config/fuel-models.yaml`)
      k = fuelKernel(model, weather.moisture)
      kernels.set(num, k)
    }
    return k
  }
  const { canopyBaseHeightFt: cbhs, canopyBulkDensityKgPerM3: cbds } = land
  const crownInputs = cbhs && cbds && land.canopyHeightFt ? { cbhs, cbds } : undefined
  const fmc = weather.foliarMoisturePercent ?? DEFAULT_FOLIAR_MOISTURE_PERCENT
  const cell = emptyCellSurfaceFire()
  const crownCell = emptyCellSurfaceFire()
  const terrainKernel = { crownRosFtPerMin: 0, crownLengthToWidth: 1 }
  const crownKernels = new Map<number, CrownKernel>()
  const surfaceForCrown = {
    rosFtPerMin: 0,
    heatPerUnitAreaBtuPerFt2: 0,
    firelineIntensityBtuPerFtPerS: 0,
    flameLengthFt: 0,
  }
  const canopyFuel = {
    canopyHeightFt: 0,
    canopyBaseHeightFt: 0,
    canopyBulkDensityKgPerM3: 0,
    foliarMoisturePercent: fmc,
  }
  const crown: CellCrownFire = {
    fireType: 1,
    rosFtPerMin: 0,
    firelineIntensityBtuPerFtPerS: 0,
    flameLengthFt: 0,
  }
  for (let i = 0; i < n; i++) {
    if (land.missing[i]) {
      out.rosFtPerMin[i] = out.flameLengthFt[i] = out.firelineIntensityBtuPerFtPerS[i] = NaN
      out.maxSpreadDirDeg[i] = out.eccentricity[i] = NaN
      out.fireType[i] = FIRE_TYPE_NODATA
      continue
    }
    const k = kernelOf(at(land.fuelModel, i))
    if (!k.burnable) {
      out.maxSpreadDirDeg[i] = NaN
      continue
    }
    const windMph = at(weather.windSpeedMph, i)
    const windFrom = at(weather.windFromDeg, i)
    const cover = land.canopyCoverPercent ? at(land.canopyCoverPercent, i) : 0
    const heightFt = land.canopyHeightFt ? at(land.canopyHeightFt, i) : 0
    const canopy = cover > 0 ? { coverPercent: cover, heightFt } : undefined
    const waf =
      weather.windHeight === 'midflame'
        ? 1
        : canopy
          ? windAdjustmentFactor(k.depthFt, canopy).factor
          : k.unshelteredWaf
    const slope = at(land.slopePercent, i)
    const aspect = at(land.aspectDeg, i)
    surfaceAtCell(
      k,
      waf * windMph,
      windFrom,
      slope,
      aspect,
      cell,
      weather.lengthToWidthFormula,
      weather.applyWindSpeedLimit,
    )
    let ros = cell.rosFtPerMin
    let fli = cell.firelineIntensityBtuPerFtPerS
    let flame = cell.flameLengthFt
    let ecc = cell.eccentricity
    let type: FireType = ros > 0 ? 1 : 0
    let crownDir = NaN
    if (crownInputs && type === 1) {
      let ck = crownKernels.get(windMph)
      if (!ck) {
        ck = crownKernelFromModel10(kernelOf(10), windMph)
        crownKernels.set(windMph, ck)
      }
      if (slope > 0) {
        // Over a slope, fuel model 10's wind and slope are vectored as FlamMap does (crownFire() with
        // terrain): the crown rate and heading of this cell.
        surfaceAtCell(kernelOf(10), 0.4 * windMph, windFrom, slope, aspect, crownCell)
        terrainKernel.crownRosFtPerMin = 3.34 * crownCell.rosFtPerMin
        terrainKernel.crownLengthToWidth = ck.crownLengthToWidth
        crownDir = crownCell.maxSpreadDirDeg
        ck = terrainKernel
      }
      surfaceForCrown.rosFtPerMin = ros
      surfaceForCrown.heatPerUnitAreaBtuPerFt2 = k.heatPerUnitAreaBtuPerFt2
      surfaceForCrown.firelineIntensityBtuPerFtPerS = fli
      surfaceForCrown.flameLengthFt = flame
      canopyFuel.canopyHeightFt = heightFt
      canopyFuel.canopyBaseHeightFt = at(crownInputs.cbhs, i)
      canopyFuel.canopyBulkDensityKgPerM3 = at(crownInputs.cbds, i)
      crownAtCell(ck, surfaceForCrown, canopyFuel, crown)
      type = crown.fireType
      ros = crown.rosFtPerMin
      fli = crown.firelineIntensityBtuPerFtPerS
      flame = crown.flameLengthFt
      if (type === 3) {
        const lw = ck.crownLengthToWidth
        ecc = lw > 1 ? Math.sqrt(lw * lw - 1) / lw : 0
      }
    }
    out.rosFtPerMin[i] = ros
    out.firelineIntensityBtuPerFtPerS[i] = fli
    out.flameLengthFt[i] = flame
    out.fireType[i] = type
    out.maxSpreadDirDeg[i] =
      type === 0 ? NaN : type === 3 && crownDir === crownDir ? crownDir : cell.maxSpreadDirDeg
    out.eccentricity[i] = ecc
  }
  return out
}
