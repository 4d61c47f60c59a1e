import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allFuelModels } from './fuelModels'
import { emptyCellSurfaceFire, fuelKernel, surfaceAtCell } from './fuelKernel'
import { surfaceFire } from './surfaceFire'
import { GS4_LOW_MOISTURE } from './testing'

const close = (a: number, b: number) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)))

describe('fuelKernel + surfaceAtCell', () => {
  it('equals surfaceFire() for any fuel model, moisture, midflame wind, slope and aspect', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...allFuelModels),
        fc.record({
          oneHourPercent: fc.double({ min: 1, max: 40, noNaN: true }),
          tenHourPercent: fc.double({ min: 1, max: 40, noNaN: true }),
          hundredHourPercent: fc.double({ min: 1, max: 40, noNaN: true }),
          liveHerbPercent: fc.double({ min: 30, max: 300, noNaN: true }),
          liveWoodyPercent: fc.double({ min: 30, max: 300, noNaN: true }),
        }),
        fc.double({ min: 0, max: 80, noNaN: true }),
        fc.double({ min: 0, max: 359.99, noNaN: true }),
        fc.double({ min: 0, max: 150, noNaN: true }),
        fc.double({ min: 0, max: 359.99, noNaN: true }),
        fc.constantFrom('anderson1983' as const, 'behaveLibrary' as const),
        fc.boolean(),
        (fuelModel, moisture, wind, windFrom, slope, aspect, formula, limit) => {
          const ref = surfaceFire({
            fuelModel,
            moisture,
            windSpeedMph: wind,
            windHeight: 'midflame',
            windFromDeg: windFrom,
            slopePercent: slope,
            aspectDeg: aspect,
            lengthToWidthFormula: formula,
            applyWindSpeedLimit: limit,
          })
          const k = fuelKernel(fuelModel, moisture)
          const c = surfaceAtCell(k, wind, windFrom, slope, aspect, emptyCellSurfaceFire(), formula, limit)
          close(c.rosFtPerMin, ref.rosFtPerMin)
          close(c.firelineIntensityBtuPerFtPerS, ref.firelineIntensityBtuPerFtPerS)
          close(c.flameLengthFt, ref.flameLengthFt)
          close(c.lengthToWidth, ref.lengthToWidth)
          close(c.eccentricity, ref.eccentricity)
          close(c.effectiveWindSpeedMph, ref.effectiveWindSpeedMph)
          if (ref.rosFtPerMin > 0) close(c.maxSpreadDirDeg, ref.maxSpreadDirDeg)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('a 20-ft wind through the unsheltered factor equals surfaceFire() with a 20-ft wind', () => {
    const fuelModel = allFuelModels.find((m) => m.code === 'GS4')!
    const k = fuelKernel(fuelModel, GS4_LOW_MOISTURE)
    const c = surfaceAtCell(k, 5 * k.unshelteredWaf, 45, 30, 95, emptyCellSurfaceFire())
    const ref = surfaceFire({
      fuelModel,
      moisture: GS4_LOW_MOISTURE,
      windSpeedMph: 5,
      windHeight: '20ft',
      windFromDeg: 45,
      slopePercent: 30,
      aspectDeg: 95,
    })
    close(c.rosFtPerMin, ref.rosFtPerMin)
  })
})
