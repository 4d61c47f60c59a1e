import { describe, expect, it } from 'vitest'
import {
  crownFire,
  crownFractionBurned,
  criticalActiveCrownRosFtPerMin,
  criticalSurfaceIntensityBtuPerFtPerS,
  rothermelCrownFire,
} from './crownFire'
import type { FuelMoisturePercent } from './fuelbed'
import { surfaceFire } from './surfaceFire'
import { GS4_LOW_MOISTURE, GS4_SCENARIO, chPerH, expectClose } from './testing'
import { BTU_PER_FT_PER_S_PER_KW_PER_M, KG_PER_M3_PER_LB_PER_FT3 } from './units'

// behave testCrownModuleRothermel (src/testBehave/testBehave.cpp, setCrownInputsLowMoistureScenario,
// github.com/firelab/behave commit d963287): GS4, foliar moisture 120 %, 5 mph 20-ft wind, 30 % slope,
// canopy 50 % cover, height 30 ft, base height 6 ft, bulk density 0.03 lb/ft³. behave's crown run sets
// the crown ratio to (height − base height) / height = 0.8 for the surface wind adjustment factor.
function behaveCrownCase(over: {
  moisture?: FuelMoisturePercent
  windSpeedMph?: number
  heightFt?: number
  baseHeightFt?: number
  bulkDensityLbPerFt3?: number
}) {
  const heightFt = over.heightFt ?? 30
  const baseHeightFt = over.baseHeightFt ?? 6
  const moisture = over.moisture ?? GS4_LOW_MOISTURE
  const windSpeedMph = over.windSpeedMph ?? 5
  const surface = surfaceFire({
    ...GS4_SCENARIO,
    moisture,
    windSpeedMph,
    canopy: { coverPercent: 50, heightFt, crownRatioFraction: (heightFt - baseHeightFt) / heightFt },
  })
  const canopy = {
    canopyHeightFt: heightFt,
    canopyBaseHeightFt: baseHeightFt,
    canopyBulkDensityKgPerM3: (over.bulkDensityLbPerFt3 ?? 0.03) * KG_PER_M3_PER_LB_PER_FT3,
    foliarMoisturePercent: 120,
  }
  return crownFire(surface, canopy, moisture, windSpeedMph)
}

describe('crown fire against behave testCrownModuleRothermel', () => {
  it('crown fire spread rate 10.259921 ch/h, length-to-width 1.625, flame length 29.320557 ft, fireline intensity 1775.061222 BTU/ft/s', () => {
    const crown = behaveCrownCase({})
    expectClose(chPerH(crown.crownRosFtPerMin), 10.259921)
    expectClose(crown.crownLengthToWidth, 1.625)
    expectClose(crown.rothermelCrownFlameLengthFt, 29.320557)
    expectClose(crown.rothermelCrownFirelineIntensityBtuPerFtPerS, 1775.061222)
  })

  it('fire type: surface with 1-h moisture 20 %, torching by default, crowning at 10 mph, conditional under a high, dense canopy', () => {
    expect(behaveCrownCase({ moisture: { ...GS4_LOW_MOISTURE, oneHourPercent: 20 } }).rothermelClass).toBe(
      'surface',
    )
    expect(behaveCrownCase({}).rothermelClass).toBe('torching')
    expect(behaveCrownCase({ windSpeedMph: 10 }).rothermelClass).toBe('crowning')
    expect(
      behaveCrownCase({ heightFt: 60, baseHeightFt: 30, bulkDensityLbPerFt3: 0.06 }).rothermelClass,
    ).toBe('conditional')
  })
})

describe('crown fire initiation and spread thresholds (Van Wagner 1977)', () => {
  it('critical surface intensity (0.010 CBH (460 + 25.9 FMC))^1.5 kW/m: 1 m base height, 100 % foliar moisture → 30.5^1.5 = 168.4 kW/m', () => {
    // (0.010 × 1 × (460 + 2590))^1.5 = 30.5^1.5 = 168.44 kW/m
    expectClose(
      criticalSurfaceIntensityBtuPerFtPerS(1 / 0.3048, 100) / BTU_PER_FT_PER_S_PER_KW_PER_M,
      30.5 ** 1.5,
      1e-9,
    )
  })

  it('critical active crown spread rate 3.0 / CBD m/min: 0.1 kg/m³ → 30 m/min', () => {
    expectClose(criticalActiveCrownRosFtPerMin(0.1) * 0.3048, 30, 1e-9)
  })

  it('crown fraction burned is 0 at the critical surface rate, 0.9 at 90 % of the way to the active rate, at most 1', () => {
    expect(crownFractionBurned(10, 10, 110)).toBe(0)
    expectClose(crownFractionBurned(10 + 0.9 * 100, 10, 110), 0.9, 1e-9)
    expect(crownFractionBurned(1e6, 10, 110)).toBeLessThanOrEqual(1)
  })
})

describe("FlamMap's Finney method classes", () => {
  it('surface below the critical intensity: the surface behaviour, no crown fraction burned', () => {
    const crown = behaveCrownCase({ moisture: { ...GS4_LOW_MOISTURE, oneHourPercent: 20 } })
    expect(crown.fireType).toBe(1)
    expect(crown.crownFractionBurned).toBe(0)
  })

  it('passive crown fire spreads at the surface rate with part of the canopy heat', () => {
    const crown = behaveCrownCase({})
    const surface = surfaceFire({
      ...GS4_SCENARIO,
      canopy: { coverPercent: 50, heightFt: 30, crownRatioFraction: 0.8 },
    })
    expect(crown.fireType).toBe(2)
    expect(crown.rosFtPerMin).toBeCloseTo(surface.rosFtPerMin, 9)
    expect(crown.crownFractionBurned).toBeGreaterThan(0)
    expect(crown.heatPerUnitAreaBtuPerFt2).toBeGreaterThan(surface.heatPerUnitAreaBtuPerFt2)
    expect(crown.firelineIntensityBtuPerFtPerS).toBeGreaterThan(surface.firelineIntensityBtuPerFtPerS)
  })

  it("a crown fire whose crown rate R + CFB (R_crown − R) reaches R_0 + 0.9 (3.0/CBD − R_0) spreads at that rate; below 3.0/CBD it is still passive (2), as FlamMap's CrownFire (firelab/wfips flammap flmburn4.cpp, flmcrwn.cpp)", () => {
    const surface = surfaceFire({
      ...GS4_SCENARIO,
      windSpeedMph: 14,
      canopy: { coverPercent: 50, heightFt: 30, crownRatioFraction: 0.8 },
    })
    const canopy = {
      canopyHeightFt: 30,
      canopyBaseHeightFt: 6,
      canopyBulkDensityKgPerM3: 0.3,
      foliarMoisturePercent: 120,
    }
    const crown = crownFire(surface, canopy, GS4_LOW_MOISTURE, 14)
    expect(crown.activeThresholdRosFtPerMin).toBeCloseTo(
      crown.criticalSurfaceRosFtPerMin +
        0.9 * (crown.criticalActiveCrownRosFtPerMin - crown.criticalSurfaceRosFtPerMin),
      9,
    )
    const crownRate =
      surface.rosFtPerMin + crown.crownFractionBurned * (crown.crownRosFtPerMin - surface.rosFtPerMin)
    expect(crownRate).toBeGreaterThanOrEqual(crown.activeThresholdRosFtPerMin)
    expect(crownRate).toBeLessThan(crown.criticalActiveCrownRosFtPerMin)
    expect(crown.rosFtPerMin).toBeCloseTo(crownRate, 9)
    expect(crown.fireType).toBe(2)
  })

  it('with terrain, fuel model 10 spreads with wind and slope vectored (FlamMap VecCrown): faster upslope, heading between wind and slope', () => {
    const flat = rothermelCrownFire(GS4_LOW_MOISTURE, 10)
    const upslopeWind = rothermelCrownFire(GS4_LOW_MOISTURE, 10, {
      slopePercent: 40,
      aspectDeg: 0,
      windFromDeg: 0,
    })
    expect(upslopeWind.rosFtPerMin).toBeGreaterThan(flat.rosFtPerMin)
    expect(upslopeWind.maxSpreadDirDeg).toBe(180)
    const crossWind = rothermelCrownFire(GS4_LOW_MOISTURE, 10, {
      slopePercent: 40,
      aspectDeg: 0,
      windFromDeg: 270,
    })
    expect(crossWind.maxSpreadDirDeg).toBeGreaterThan(90)
    expect(crossWind.maxSpreadDirDeg).toBeLessThan(180)
  })

  it('heat per unit area: the surface fire plus the burned fraction of the canopy load at 18,000 kJ/kg (FlamMap)', () => {
    const crown = behaveCrownCase({})
    const surface = surfaceFire({
      ...GS4_SCENARIO,
      canopy: { coverPercent: 50, heightFt: 30, crownRatioFraction: 0.8 },
    })
    const btuPerLb = (18000 * 0.45359237) / 1.05505585
    expectClose(
      crown.heatPerUnitAreaBtuPerFt2,
      surface.heatPerUnitAreaBtuPerFt2 + crown.crownFractionBurned * crown.canopyFuelLoadLbPerFt2 * btuPerLb,
      1e-9,
    )
    expectClose(crown.canopyFuelLoadLbPerFt2, 0.03 * 24, 1e-6)
  })

  it('active crown fire once R + CFB (R_crown − R) reaches the threshold', () => {
    const crown = behaveCrownCase({ windSpeedMph: 25 })
    expect(crown.fireType).toBe(3)
    expect(crown.rosFtPerMin).toBeGreaterThanOrEqual(crown.activeThresholdRosFtPerMin)
    expect(crown.rosFtPerMin).toBeLessThanOrEqual(crown.crownRosFtPerMin)
  })

  it('non-burnable fuel is fire type 0', () => {
    const surface = surfaceFire({
      ...GS4_SCENARIO,
      fuelModel: { ...GS4_SCENARIO.fuelModel, set: 'nonBurnable' },
    })
    const crown = crownFire(
      surface,
      {
        canopyHeightFt: 30,
        canopyBaseHeightFt: 6,
        canopyBulkDensityKgPerM3: 0.2,
        foliarMoisturePercent: 100,
      },
      GS4_LOW_MOISTURE,
      5,
    )
    expect(crown.fireType).toBe(0)
  })
})
