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
export {
  DEFAULT_FOLIAR_MOISTURE_PERCENT,
  FIRE_TYPE_NODATA,
  fireBehaviourGrid,
  type FireBehaviourGrid,
  type FireWeather,
  type Landscape,
  type PerCell,
} from './fireBehaviourGrid'
export { fuelKernel, surfaceAtCell, type FuelKernel } from './fuelKernel'
export { crownAtCell, crownKernel, crownKernelFromModel10, type CrownKernel } from './crownKernel'
export { minimumTravelTime, type CellEllipses, type TravelTimeInput } from './spread/minimumTravelTime'
export * from './units'
