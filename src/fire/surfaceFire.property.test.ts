import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allFuelModels } from './fuelModels'
import { surfaceFire, type SurfaceFireInputs } from './surfaceFire'
import { windAdjustmentFactor } from './windAdjustmentFactor'

const burnable = allFuelModels.filter((m) => m.set !== 'nonBurnable')
const inputs = fc.record({
  fuelModel: fc.constantFrom(...allFuelModels),
  moisture: fc.record({
    oneHourPercent: fc.double({ min: 1, max: 40, noNaN: true }),
    tenHourPercent: fc.double({ min: 1, max: 40, noNaN: true }),
    hundredHourPercent: fc.double({ min: 1, max: 40, noNaN: true }),
    liveHerbPercent: fc.double({ min: 30, max: 300, noNaN: true }),
    liveWoodyPercent: fc.double({ min: 30, max: 300, noNaN: true }),
  }),
  windSpeedMph: fc.double({ min: 0, max: 60, noNaN: true }),
  windHeight: fc.constantFrom('midflame' as const, '20ft' as const),
  windFromDeg: fc.double({ min: 0, max: 359.99, noNaN: true }),
  slopePercent: fc.double({ min: 0, max: 150, noNaN: true }),
  aspectDeg: fc.double({ min: 0, max: 359.99, noNaN: true }),
}) satisfies fc.Arbitrary<SurfaceFireInputs>

describe('surface fire properties', () => {
  it('rates, intensity and flame length are finite and non-negative; backing ≤ flanking ≤ head; direction in [0, 360)', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        const f = surfaceFire(i)
        for (const v of [
          f.rosFtPerMin,
          f.backingRosFtPerMin,
          f.flankingRosFtPerMin,
          f.firelineIntensityBtuPerFtPerS,
          f.flameLengthFt,
        ])
          expect(Number.isFinite(v) && v >= 0).toBe(true)
        expect(f.backingRosFtPerMin).toBeLessThanOrEqual(f.flankingRosFtPerMin + 1e-9)
        expect(f.flankingRosFtPerMin).toBeLessThanOrEqual(f.rosFtPerMin + 1e-9)
        expect(f.maxSpreadDirDeg >= 0 && f.maxSpreadDirDeg < 360).toBe(true)
        expect(f.lengthToWidth >= 1 && f.lengthToWidth <= 8).toBe(true)
      }),
      { numRuns: 400 },
    )
  })

  it('no wind and no slope: a circle (length-to-width 1, backing = flanking = head)', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        const f = surfaceFire({ ...i, windSpeedMph: 0, slopePercent: 0 })
        expect(f.lengthToWidth).toBe(1)
        expect(f.backingRosFtPerMin).toBeCloseTo(f.rosFtPerMin, 9)
        expect(f.flankingRosFtPerMin).toBeCloseTo(f.rosFtPerMin, 9)
      }),
    )
  })

  it('on flat ground the fire heads downwind; with no wind it heads upslope (aspect + 180°)', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        const windOnly = surfaceFire({
          ...i,
          fuelModel: burnable[0]!,
          windSpeedMph: Math.max(1, i.windSpeedMph),
          slopePercent: 0,
        })
        fc.pre(windOnly.rosFtPerMin > 0) // fuel at or above its extinction moisture does not burn, so has no heading
        expect(Math.abs(((windOnly.maxSpreadDirDeg - (i.windFromDeg + 180) + 540) % 360) - 180)).toBeLessThan(
          0.51,
        )
        const slopeOnly = surfaceFire({
          ...i,
          fuelModel: burnable[0]!,
          windSpeedMph: 0,
          slopePercent: Math.max(5, i.slopePercent),
        })
        expect(Math.abs(((slopeOnly.maxSpreadDirDeg - (i.aspectDeg + 180) + 540) % 360) - 180)).toBeLessThan(
          1e-6,
        )
      }),
    )
  })

  it('more wind never slows the head fire; wetter fine fuel never speeds it', () => {
    fc.assert(
      fc.property(inputs, fc.double({ min: 0.1, max: 20, noNaN: true }), (i, more) => {
        expect(surfaceFire({ ...i, windSpeedMph: i.windSpeedMph + more }).rosFtPerMin).toBeGreaterThanOrEqual(
          surfaceFire(i).rosFtPerMin - 1e-9,
        )
        const wetter = { ...i.moisture, oneHourPercent: i.moisture.oneHourPercent + more }
        expect(surfaceFire({ ...i, moisture: wetter }).rosFtPerMin).toBeLessThanOrEqual(
          surfaceFire(i).rosFtPerMin + 1e-9,
        )
      }),
    )
  })

  it('the effective-wind limit, when asked for, never raises the spread rate', () => {
    fc.assert(
      fc.property(inputs, (i) => {
        expect(surfaceFire({ ...i, applyWindSpeedLimit: true }).rosFtPerMin).toBeLessThanOrEqual(
          surfaceFire(i).rosFtPerMin + 1e-9,
        )
      }),
    )
  })
})

describe('wind adjustment factor', () => {
  it('unsheltered 1.83 / ln((20 + 0.36 H) / (0.13 H)): GR2 (1 ft) → 0.362; cover of 5 % or less is unsheltered', () => {
    expect(windAdjustmentFactor(1).factor).toBeCloseTo(1.83 / Math.log(20.36 / 0.13), 12)
    expect(windAdjustmentFactor(1).factor).toBeCloseTo(0.362, 3)
    expect(windAdjustmentFactor(1, { coverPercent: 5, heightFt: 100, crownRatioFraction: 1 }).sheltered).toBe(
      false,
    )
    expect(windAdjustmentFactor(1, { coverPercent: 5, heightFt: 100 }).sheltered).toBe(false)
  })

  it('sheltered 0.555 / (√(f H) ln((20 + 0.36 H)/(0.13 H))), f = cover × crown ratio / 3', () => {
    const w = windAdjustmentFactor(2.1, { coverPercent: 50, heightFt: 30, crownRatioFraction: 0.5 })
    expect(w.sheltered).toBe(true)
    expect(w.factor).toBeCloseTo(0.555 / (Math.sqrt((0.5 * 0.5 * 30) / 3) * Math.log(30.8 / 3.9)), 12)
  })
})
