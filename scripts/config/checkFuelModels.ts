import type { FuelModelsConfig } from '../../src/generated/types'
import type { CheckContext } from './checkContext'

const F = 'fuel-models'

/**
 * config/fuel-models.yaml beyond its schema: numbers and codes are unique (rasters and the command
 * line look models up by either), a burnable model has a fuelbed to burn (depth, 1-h load and SAV
 * above zero) and a non-burnable one has no load at all.
 */
export function checkFuelModels(ctx: CheckContext, config: FuelModelsConfig): void {
  const numbers = new Set<number>()
  const codes = new Set<string>()
  config.fuelModels.forEach((m, i) => {
    if (numbers.has(m.number)) ctx.report(F, ['fuelModels', i, 'number'], `duplicate fuel model number ${m.number}`)
    numbers.add(m.number)
    if (codes.has(m.code)) ctx.report(F, ['fuelModels', i, 'code'], `duplicate fuel model code '${m.code}'`)
    codes.add(m.code)
    const loads = m.loadTonsPerAcre
    const total = loads.oneHour + loads.tenHour + loads.hundredHour + loads.liveHerb + loads.liveWoody
    if (m.set === 'nonBurnable') {
      if (total > 0) ctx.report(F, ['fuelModels', i, 'loadTonsPerAcre'], `non-burnable model ${m.code} must have no fuel load`)
      return
    }
    if (m.depthFt <= 0) ctx.report(F, ['fuelModels', i, 'depthFt'], `burnable model ${m.code} needs a fuelbed depth above 0`)
    if (loads.oneHour <= 0) ctx.report(F, ['fuelModels', i, 'loadTonsPerAcre', 'oneHour'], `burnable model ${m.code} needs a 1-h load above 0`)
    if (m.savPerFt.oneHour <= 0) ctx.report(F, ['fuelModels', i, 'savPerFt', 'oneHour'], `burnable model ${m.code} needs a 1-h SAV above 0`)
    if (m.deadMoistureOfExtinctionPercent <= 0)
      ctx.report(F, ['fuelModels', i, 'deadMoistureOfExtinctionPercent'], `burnable model ${m.code} needs a moisture of extinction above 0`)
  })
}
