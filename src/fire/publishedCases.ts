// The inputs of the published cases the fire core is checked against (tests, the validation table of
// docs/fire.md, bench:fire): the firelab behave library's GS4 low-moisture scenario
// (src/testBehave/testBehave.cpp, setSurfaceInputsForGS4LowMoistureScenario, commit d963287) and
// the BehavePlus 6 GR2 case.
import type { FuelMoisturePercent } from './fuelbed'
import { findFuelModel, type FuelModel } from './fuelModels'
import type { SurfaceFireInputs } from './surfaceFire'

/** A fuel model by number or code; throws on an unknown one. */
export function model(key: number | string): FuelModel {
  const m = findFuelModel(key)
  if (!m) throw new Error(`no fuel model ${key}`)
  return m
}

/** behave's GS4 low-moisture set: 1-h 6 %, 10-h 7 %, 100-h 8 %, herbaceous 60 %, woody 90 %. */
export const GS4_LOW_MOISTURE: FuelMoisturePercent = {
  oneHourPercent: 6,
  tenHourPercent: 7,
  hundredHourPercent: 8,
  liveHerbPercent: 60,
  liveWoodyPercent: 90,
}

/** GS4, 5 mph 20-ft wind from the north, 30 % slope facing north, canopy 50 % cover, 30 ft, crown ratio 0.5. */
export const GS4_SCENARIO: SurfaceFireInputs = {
  fuelModel: model(124),
  moisture: GS4_LOW_MOISTURE,
  windSpeedMph: 5,
  windHeight: '20ft',
  windFromDeg: 0,
  slopePercent: 30,
  aspectDeg: 0,
  canopy: { coverPercent: 50, heightFt: 30, crownRatioFraction: 0.5 },
}

/**
 * The BehavePlus 6 GR2 case of issue #31 (46.15 ft/min, length-to-width 2.236 at 10 mph 20-ft wind,
 * no slope): 1-h 3 %, live herbaceous 30 %. GR2 has no 10-h, 100-h or woody load, so those
 * moistures (4, 5, 60 %) do not enter the result.
 */
export const BEHAVEPLUS_GR2_MOISTURE: FuelMoisturePercent = {
  oneHourPercent: 3,
  tenHourPercent: 4,
  hundredHourPercent: 5,
  liveHerbPercent: 30,
  liveWoodyPercent: 60,
}
