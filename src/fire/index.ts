// The fire-behaviour core: pure TypeScript (no server, browser or database), usable in worker threads
// and in a browser. See docs/fire.md.
export { allFuelModels, findFuelModel, isBurnable, type FuelModel } from './fuelModels'
export {
  describeFuelbed,
  herbaceousTransferFraction,
  type Fuelbed,
  type FuelMoisturePercent,
} from './fuelbed'
export {
  windAdjustmentFactor,
  unshelteredWaf,
  type Canopy,
  type WindAdjustment,
} from './windAdjustmentFactor'
export {
  lengthToWidthRatio,
  crownLengthToWidthRatio,
  ellipseRates,
  rosAtAngleFtPerMin,
  type LengthToWidthFormula,
} from './fireEllipse'
export {
  surfaceFire,
  surfaceRosTowardFtPerMin,
  byramFlameLengthFt,
  type SurfaceFire,
  type SurfaceFireInputs,
} from './surfaceFire'
export {
  activeThresholdRosFtPerMin,
  crownFire,
  crownFractionBurned,
  criticalActiveCrownRosFtPerMin,
  criticalSurfaceIntensityBtuPerFtPerS,
  rothermelCrownFire,
  rothermelCrownRosFtPerMin,
  thomasFlameLengthFt,
  type CanopyFuel,
  type CrownTerrain,
  type CrownFire,
  type FireType,
} from './crownFire'
export * from './units'
