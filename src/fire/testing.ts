// Shared inputs of the fire-core tests: the firelab behave library's GS4 low-moisture scenario
// (src/testBehave/testBehave.cpp, setSurfaceInputsForGS4LowMoistureScenario, commit d963287).
import { expect } from 'vitest'
import type { FuelMoisturePercent } from './fuelbed'
import { findFuelModel, type FuelModel } from './fuelModels'
import type { SurfaceFireInputs } from './surfaceFire'
import { FT_PER_MIN_PER_CH_PER_H } from './units'

export function model(key: number | string): FuelModel {
  const m = findFuelModel(key)
  if (!m) throw new Error(`no fuel model ${key}`)
  return m
}

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

export const chPerH = (ftPerMin: number): number => ftPerMin / FT_PER_MIN_PER_CH_PER_H

/** Within `tolerance` (relative; 0.5 % unless told) of a published value. */
export function expectClose(observed: number, published: number, tolerance = 0.005): void {
  if (published === 0) expect(Math.abs(observed)).toBeLessThan(1e-9)
  else expect(Math.abs(observed - published) / Math.abs(published)).toBeLessThanOrEqual(tolerance)
}
