// The Rothermel (1972) fuelbed with Albini's (1976) changes, as BehavePlus applies them
// (Andrews 2018, RMRS-GTR-371, ch. 3–4): characteristic SAV, packing ratios, reaction intensity,
// propagating flux ratio, heat sink and the no-wind, no-slope spread rate; live fuel moisture of
// extinction (Albini 1976, p. 89); dynamic herbaceous load transfer (Scott & Burgan 2005).
import type { FuelModel } from './fuelModels'
import { LB_PER_FT2_PER_TON_PER_ACRE } from './units'

/** Fuel moistures in percent of oven-dry weight. */
export interface FuelMoisturePercent {
  readonly oneHourPercent: number
  readonly tenHourPercent: number
  readonly hundredHourPercent: number
  readonly liveHerbPercent: number
  readonly liveWoodyPercent: number
}

interface Particle {
  readonly loadLbPerFt2: number
  readonly savPerFt: number
  readonly moistureFraction: number
}

/** Oven-dry particle density, lb/ft³ (Rothermel 1972; Albini 1976, p. 91). */
const PARTICLE_DENSITY_LB_PER_FT3 = 32
/** Total mineral content S_T (Rothermel 1972). */
const TOTAL_MINERAL_FRACTION = 0.0555
/** Effective mineral (silica-free ash) content S_e. */
const EFFECTIVE_MINERAL_FRACTION = 0.01
/** 10-h and 100-h surface-area-to-volume ratios of every standard model, 1/ft. */
export const TEN_HOUR_SAV_PER_FT = 109
export const HUNDRED_HOUR_SAV_PER_FT = 30

/**
 * Fraction of the live herbaceous load a dynamic model moves to dead herbaceous: all of it below 30 %
 * herbaceous moisture, none above 120 %, linear in between. BehavePlus (and the firelab behave
 * library) write the line as 1.333 − 1.11 M, which we keep so results match them.
 */
export function herbaceousTransferFraction(liveHerbMoistureFraction: number): number {
  if (liveHerbMoistureFraction < 0.3) return 1
  if (liveHerbMoistureFraction > 1.2) return 0
  return Math.min(1, Math.max(0, 1.333 - 1.11 * liveHerbMoistureFraction))
}

/** Everything the spread equations need from a fuelbed under a moisture scenario. */
export interface Fuelbed {
  readonly burnable: boolean
  readonly depthFt: number
  /** σ, the fuelbed's characteristic surface-area-to-volume ratio (1/ft). */
  readonly characteristicSavPerFt: number
  /** β, packing ratio. */
  readonly packingRatio: number
  /** β/β_op. */
  readonly relativePackingRatio: number
  readonly bulkDensityLbPerFt3: number
  /** ξ. */
  readonly propagatingFluxRatio: number
  /** ρ_b Σ f ε Q_ig (BTU/ft³). */
  readonly heatSinkBtuPerFt3: number
  /** I_R (BTU/ft²/min). */
  readonly reactionIntensityBtuPerFt2PerMin: number
  readonly deadMoistureOfExtinctionFraction: number
  readonly liveMoistureOfExtinctionFraction: number
  readonly characteristicDeadMoistureFraction: number
  readonly characteristicLiveMoistureFraction: number
  /** Live herbaceous load moved to dead by curing (tons/acre). */
  readonly curedHerbLoadTonsPerAcre: number
}

/** Size-class bins that share a weighting factor (Albini 1976, p. 90; BehavePlus). */
function savBin(savPerFt: number): number {
  if (savPerFt >= 1200) return 0
  if (savPerFt >= 192) return 1
  if (savPerFt >= 96) return 2
  if (savPerFt >= 48) return 3
  if (savPerFt >= 16) return 4
  return -1
}

interface Category {
  readonly surfaceAreaFt2PerFt2: number
  readonly savPerFt: number
  readonly moistureFraction: number
  /** Σ g_i w_n,i: net load weighted by size-class surface-area fractions (lb/ft²). */
  readonly netLoadLbPerFt2: number
  readonly heatSinkPerLoad: number
  readonly loadLbPerFt2: number
}

/** Surface-area weighting within one life category (dead or live). */
function category(particles: readonly Particle[]): Category {
  const area = particles.map((p) =>
    p.savPerFt > 0 ? (p.loadLbPerFt2 * p.savPerFt) / PARTICLE_DENSITY_LB_PER_FT3 : 0,
  )
  const total = area.reduce((a, b) => a + b, 0)
  const f = area.map((a) => (total > 1e-7 ? a / total : 0))
  const binSum = [0, 0, 0, 0, 0]
  particles.forEach((p, i) => {
    const bin = savBin(p.savPerFt)
    if (bin >= 0) binSum[bin] = (binSum[bin] ?? 0) + (f[i] ?? 0)
  })
  let sav = 0
  let moisture = 0
  let netLoad = 0
  let heatSinkPerLoad = 0
  let load = 0
  particles.forEach((p, i) => {
    if (p.savPerFt <= 1e-7) return
    const fi = f[i] ?? 0
    const bin = savBin(p.savPerFt)
    sav += fi * p.savPerFt
    moisture += fi * p.moistureFraction
    netLoad += (bin >= 0 ? (binSum[bin] ?? 0) : 0) * p.loadLbPerFt2 * (1 - TOTAL_MINERAL_FRACTION)
    heatSinkPerLoad += fi * Math.exp(-138 / p.savPerFt) * (250 + 1116 * p.moistureFraction)
    load += p.loadLbPerFt2
  })
  return {
    surfaceAreaFt2PerFt2: total,
    savPerFt: sav,
    moistureFraction: moisture,
    netLoadLbPerFt2: netLoad,
    heatSinkPerLoad,
    loadLbPerFt2: load,
  }
}

/** Albini (1976) live fuel moisture of extinction, never below the dead one. */
function liveMoistureOfExtinction(
  dead: readonly Particle[],
  live: readonly Particle[],
  deadMxFraction: number,
): number {
  let fineDead = 0
  let fineDeadMoisture = 0
  for (const p of dead) {
    if (p.savPerFt <= 1e-7) continue
    const w = p.loadLbPerFt2 * Math.exp(-138 / p.savPerFt)
    fineDead += w
    fineDeadMoisture += w * p.moistureFraction
  }
  let fineLive = 0
  for (const p of live) if (p.savPerFt > 1e-7) fineLive += p.loadLbPerFt2 * Math.exp(-500 / p.savPerFt)
  const mfDead = fineDead > 1e-7 ? fineDeadMoisture / fineDead : 0
  const ratio = fineLive > 1e-7 ? fineDead / fineLive : 0
  return Math.max(deadMxFraction, 2.9 * ratio * (1 - mfDead / deadMxFraction) - 0.226)
}

/** Rothermel's moisture damping coefficient η_M. */
export function moistureDamping(moistureFraction: number, extinctionFraction: number): number {
  if (extinctionFraction <= 0 || moistureFraction >= extinctionFraction) return 0
  const r = moistureFraction / extinctionFraction
  return 1 - 2.59 * r + 5.11 * r * r - 3.52 * r * r * r
}

/** Rothermel's mineral damping coefficient η_s = 0.174 S_e^−0.19, at most 1. */
export function mineralDamping(effectiveMineralFraction: number): number {
  if (effectiveMineralFraction <= 0) return 0
  return Math.min(1, 0.174 * effectiveMineralFraction ** -0.19)
}

const UNBURNABLE = (model: FuelModel): Fuelbed => ({
  burnable: false,
  depthFt: model.depthFt,
  characteristicSavPerFt: 0,
  packingRatio: 0,
  relativePackingRatio: 0,
  bulkDensityLbPerFt3: 0,
  propagatingFluxRatio: 0,
  heatSinkBtuPerFt3: 0,
  reactionIntensityBtuPerFt2PerMin: 0,
  deadMoistureOfExtinctionFraction: model.deadMoistureOfExtinctionPercent / 100,
  liveMoistureOfExtinctionFraction: model.deadMoistureOfExtinctionPercent / 100,
  characteristicDeadMoistureFraction: 0,
  characteristicLiveMoistureFraction: 0,
  curedHerbLoadTonsPerAcre: 0,
})

/** The fuelbed of a fuel model under a moisture scenario (Rothermel 1972; Albini 1976). */
export function describeFuelbed(model: FuelModel, moisture: FuelMoisturePercent): Fuelbed {
  const load = model.loadTonsPerAcre
  const totalTons = load.oneHour + load.tenHour + load.hundredHour + load.liveHerb + load.liveWoody
  if (model.set === 'nonBurnable' || totalTons <= 0 || model.depthFt <= 0) return UNBURNABLE(model)
  const m1 = moisture.oneHourPercent / 100
  const herbM = moisture.liveHerbPercent / 100
  const cured = model.dynamic && load.liveHerb > 0 ? load.liveHerb * herbaceousTransferFraction(herbM) : 0
  const lb = (tons: number) => tons * LB_PER_FT2_PER_TON_PER_ACRE
  const dead: Particle[] = [
    { loadLbPerFt2: lb(load.oneHour), savPerFt: model.savPerFt.oneHour, moistureFraction: m1 },
    {
      loadLbPerFt2: lb(load.tenHour),
      savPerFt: TEN_HOUR_SAV_PER_FT,
      moistureFraction: moisture.tenHourPercent / 100,
    },
    {
      loadLbPerFt2: lb(load.hundredHour),
      savPerFt: HUNDRED_HOUR_SAV_PER_FT,
      moistureFraction: moisture.hundredHourPercent / 100,
    },
    // Cured herbaceous fuel is dead fuel with the herb SAV and the 1-h moisture (Scott & Burgan 2005).
    { loadLbPerFt2: lb(cured), savPerFt: model.savPerFt.liveHerb, moistureFraction: m1 },
  ]
  const live: Particle[] = [
    { loadLbPerFt2: lb(load.liveHerb - cured), savPerFt: model.savPerFt.liveHerb, moistureFraction: herbM },
    {
      loadLbPerFt2: lb(load.liveWoody),
      savPerFt: model.savPerFt.liveWoody,
      moistureFraction: moisture.liveWoodyPercent / 100,
    },
  ]
  const deadMx = model.deadMoistureOfExtinctionPercent / 100
  // BehavePlus computes the live extinction moisture whenever the model has live load before curing.
  const liveMx = load.liveHerb + load.liveWoody > 0 ? liveMoistureOfExtinction(dead, live, deadMx) : 0
  const d = category(dead)
  const l = category(live)
  const totalArea = d.surfaceAreaFt2PerFt2 + l.surfaceAreaFt2PerFt2
  const fDead = totalArea > 0 ? d.surfaceAreaFt2PerFt2 / totalArea : 0
  const fLive = 1 - fDead
  const sigma = fDead * d.savPerFt + fLive * l.savPerFt
  const depth = model.depthFt
  const totalLoad = d.loadLbPerFt2 + l.loadLbPerFt2
  const bulkDensity = totalLoad / depth
  const packingRatio = [...dead, ...live].reduce(
    (s, p) => s + p.loadLbPerFt2 / (depth * PARTICLE_DENSITY_LB_PER_FT3),
    0,
  )
  const optimumPackingRatio = 3.348 * sigma ** -0.8189
  const relativePackingRatio = packingRatio / optimumPackingRatio
  // Optimum reaction velocity Γ' (Albini 1976 form of Rothermel's eq. 38–39), 1/min.
  const a = 133 * sigma ** -0.7913
  const sigma15 = sigma ** 1.5
  const gammaMax = sigma15 / (495 + 0.0594 * sigma15)
  const gamma = gammaMax * relativePackingRatio ** a * Math.exp(a * (1 - relativePackingRatio))
  const etaS = mineralDamping(EFFECTIVE_MINERAL_FRACTION)
  const deadIr =
    d.netLoadLbPerFt2 * model.heatContentBtuPerLb.dead * moistureDamping(d.moistureFraction, deadMx) * etaS
  const liveIr =
    l.netLoadLbPerFt2 * model.heatContentBtuPerLb.live * moistureDamping(l.moistureFraction, liveMx) * etaS
  const reactionIntensity = gamma * (deadIr + liveIr)
  const propagatingFluxRatio =
    Math.exp((0.792 + 0.681 * Math.sqrt(sigma)) * (packingRatio + 0.1)) / (192 + 0.2595 * sigma)
  const heatSink = bulkDensity * (fDead * d.heatSinkPerLoad + fLive * l.heatSinkPerLoad)
  return {
    burnable: true,
    depthFt: depth,
    characteristicSavPerFt: sigma,
    packingRatio,
    relativePackingRatio,
    bulkDensityLbPerFt3: bulkDensity,
    propagatingFluxRatio,
    heatSinkBtuPerFt3: heatSink,
    reactionIntensityBtuPerFt2PerMin: reactionIntensity,
    deadMoistureOfExtinctionFraction: deadMx,
    liveMoistureOfExtinctionFraction: liveMx,
    characteristicDeadMoistureFraction: d.moistureFraction,
    characteristicLiveMoistureFraction: l.moistureFraction,
    curedHerbLoadTonsPerAcre: cured,
  }
}

/** R_0 = I_R ξ / (ρ_b ε Q_ig), ft/min. */
export function noWindNoSlopeRosFtPerMin(bed: Fuelbed): number {
  return bed.heatSinkBtuPerFt3 > 1e-7
    ? (bed.reactionIntensityBtuPerFt2PerMin * bed.propagatingFluxRatio) / bed.heatSinkBtuPerFt3
    : 0
}
