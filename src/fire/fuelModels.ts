import { fuelModelsConfig, type FuelModel } from '../shared/config'

export type { FuelModel }

const byNumber = new Map(fuelModelsConfig.fuelModels.map((m) => [m.number, m]))
const byCode = new Map(fuelModelsConfig.fuelModels.map((m) => [m.code.toUpperCase(), m]))

/** Every configured fuel model (config/fuel-models.yaml), in file order. */
export const allFuelModels: readonly FuelModel[] = fuelModelsConfig.fuelModels

/**
 * The fuel model a number (`124`) or code (`GS4`, any case) names, or undefined.
 * Numbers are LANDFIRE's raster codes (FBFM13 1–13, FBFM40 91–204).
 */
export function findFuelModel(key: number | string): FuelModel | undefined {
  if (typeof key === 'number') return byNumber.get(key)
  const text = key.trim()
  if (/^\d+$/.test(text)) return byNumber.get(Number(text))
  return byCode.get(text.toUpperCase())
}

/** A model burns if it has any fuel load (non-burnable classes have none). */
export function isBurnable(model: FuelModel): boolean {
  const l = model.loadTonsPerAcre
  return model.set !== 'nonBurnable' && l.oneHour + l.tenHour + l.hundredHour + l.liveHerb + l.liveWoody > 0
}
