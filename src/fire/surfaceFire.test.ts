import { describe, expect, it } from 'vitest'
import { surfaceFire, surfaceRosTowardFtPerMin } from './surfaceFire'
import { BEHAVEPLUS_GR2_MOISTURE, GS4_SCENARIO, chPerH, expectClose, model } from './testing'
import { BTU_PER_FT_PER_S_PER_KW_PER_M, slopePercentFromDeg } from './units'

// Published values from the firelab behave library's test suite, src/testBehave/testBehave.cpp
// (github.com/firelab/behave, commit d963287), transcribed with their inputs. behave's "upslope
// oriented mode" is our north frame with aspect 0 (upslope = south) and the wind from 0 + its angle.
// behave's tests run in sequence on one BehaveRun, so each case below restates the inputs left set.
const SLOPE_30_DEG = slopePercentFromDeg(30)

describe('surface fire against behave testSurfaceSingleFuelModel (GS4 / 124)', () => {
  const crossWind = { ...GS4_SCENARIO, slopePercent: SLOPE_30_DEG, windFromDeg: 45, aspectDeg: 95 }

  it('north oriented mode, 45° wind, 95° aspect, 5 mph 20-ft wind, 30° slope: 19.677584 ch/h and its intermediates', () => {
    const fire = surfaceFire(crossWind)
    expectClose(chPerH(fire.rosFtPerMin), 19.677584)
    expectClose(fire.fuelbed.liveMoistureOfExtinctionFraction * 100, 137.968551)
    expectClose(fire.fuelbed.characteristicLiveMoistureFraction * 100, 85.874007)
    expectClose(fire.fuelbed.characteristicDeadMoistureFraction * 100, 6.005463)
    expectClose(fire.fuelbed.characteristicSavPerFt, 1631.128734)
    expectClose(fire.heatSourceBtuPerFt2PerMin, 5177.248579)
  })

  it('heat source, 0° wind, 0° aspect, 0° slope: 1164.267376 BTU/ft²/min', () => {
    expectClose(surfaceFire({ ...GS4_SCENARIO, slopePercent: 0 }).heatSourceBtuPerFt2PerMin, 1164.267376)
  })

  it('upslope oriented mode, 5 mph 20-ft upslope wind, 30 % slope: 8.876216 ch/h (and north mode, north wind, zero aspect)', () => {
    expectClose(chPerH(surfaceFire(GS4_SCENARIO).rosFtPerMin), 8.876216)
  })

  it('upslope oriented mode, 5 mph 20-ft wind cross-slope (90°): 7.091665 ch/h', () => {
    expectClose(chPerH(surfaceFire({ ...GS4_SCENARIO, windFromDeg: 90 }).rosFtPerMin), 7.091665)
  })

  it('north oriented mode, 45° wind, 215° aspect: 4.113265 ch/h; 45° wind, 5° aspect: 8.503960 ch/h', () => {
    expectClose(
      chPerH(surfaceFire({ ...GS4_SCENARIO, windFromDeg: 45, aspectDeg: 215 }).rosFtPerMin),
      4.113265,
    )
    expectClose(chPerH(surfaceFire({ ...GS4_SCENARIO, windFromDeg: 45, aspectDeg: 5 }).rosFtPerMin), 8.50396)
  })

  it('fuel model 4, 90° wind, 0° aspect, 30° slope, 40 % canopy cover: 46.631688 ch/h', () => {
    const fire = surfaceFire({
      ...GS4_SCENARIO,
      fuelModel: model(4),
      windFromDeg: 90,
      slopePercent: SLOPE_30_DEG,
      canopy: { coverPercent: 40, heightFt: 30, crownRatioFraction: 0.5 },
    })
    expectClose(chPerH(fire.rosFtPerMin), 46.631688)
  })

  it('non-burnable fuel (91): 0', () => {
    const fire = surfaceFire({ ...GS4_SCENARIO, fuelModel: model(91) })
    expect(fire.rosFtPerMin).toBe(0)
    expect(fire.flameLengthFt).toBe(0)
  })
})

describe('fireline intensity and flame length against behave', () => {
  it('testFirelineIntensity, upslope oriented mode, 20-ft upslope wind: 598.339039 BTU/ft/s = 2072.730450 kW/m', () => {
    const fire = surfaceFire(GS4_SCENARIO)
    expectClose(fire.firelineIntensityBtuPerFtPerS, 598.339039)
    expectClose(fire.firelineIntensityBtuPerFtPerS / BTU_PER_FT_PER_S_PER_KW_PER_M, 2072.73045)
  })

  it('testSimpleSurface (wind adjustment factor 1.0): 34.011429 ch/h, flame length 15.811421 ft, 2292.684759 BTU/ft/s', () => {
    const fire = surfaceFire({ ...GS4_SCENARIO, canopy: undefined, windAdjustmentFactor: 1 })
    expectClose(chPerH(fire.rosFtPerMin), 34.011429)
    expectClose(fire.flameLengthFt, 15.811421)
    expectClose(fire.firelineIntensityBtuPerFtPerS, 2292.684759)
  })
})

// behave's length-to-width ratio, and through it its backing, flanking and direction-of-interest
// figures, use FlamMap's coefficients on a wind in mph (fireSize.cpp since 2022); BehavePlus 6 uses
// Anderson (1983) in mph (see the GR2 case). These cases check our ellipse geometry with behave's ratio.
describe('fire ellipse against behave (its length-to-width formula)', () => {
  const behaveLw = { ...GS4_SCENARIO, lengthToWidthFormula: 'behaveLibrary' } as const

  it('testSurfaceSingleFuelModel backing 2.91614659 and flanking 5.08766627 ch/h, upslope mode', () => {
    const fire = surfaceFire(behaveLw)
    expectClose(chPerH(fire.backingRosFtPerMin), 2.91614659)
    expectClose(chPerH(fire.flankingRosFtPerMin), 5.08766627)
  })

  it('testLengthToWidthRatio: 0 mph → 1; 5 mph midflame → 1.590064; 5 and 15 mph 20-ft with 45° wind, 95° aspect, 30° slope → 1.375624, 1.519936', () => {
    expect(surfaceFire({ ...behaveLw, windSpeedMph: 0, slopePercent: 0 }).lengthToWidth).toBe(1)
    expectClose(surfaceFire({ ...behaveLw, windHeight: 'midflame', slopePercent: 0 }).lengthToWidth, 1.590064)
    const angled = { ...behaveLw, slopePercent: SLOPE_30_DEG, windFromDeg: 45, aspectDeg: 95 }
    expectClose(surfaceFire(angled).lengthToWidth, 1.375624)
    expectClose(surfaceFire({ ...angled, windSpeedMph: 15 }).lengthToWidth, 1.519936)
  })

  it('testDirectionOfInterest, perimeter mode (upslope frame: upslope = 180° from north)', () => {
    const upslopeWind = surfaceFire(behaveLw)
    expectClose(surfaceRosTowardFtPerMin(upslopeWind, 180 + 90), 5.596433)
    const ros290 = surfaceRosTowardFtPerMin(surfaceFire({ ...behaveLw, windFromDeg: 290 }), 180 + 160)
    expectClose(chPerH(ros290), 2.766387)
    const ros215 = surfaceRosTowardFtPerMin(surfaceFire({ ...behaveLw, windFromDeg: 215 }), 180 + 215)
    expectClose(chPerH(ros215), 2.818063)
  })

  it('testDirectionOfInterest, flame length normal to the perimeter at 90° from upslope: 6.598148 ft', () => {
    const fire = surfaceFire(behaveLw)
    const ros = surfaceRosTowardFtPerMin(fire, 270)
    const intensity = (ros * fire.heatPerUnitAreaBtuPerFt2) / 60
    expectClose(0.45 * intensity ** 0.46, 6.598148)
  })

  it('testDirectionOfInterest, from the ignition point, north oriented mode', () => {
    const at = (windFromDeg: number, aspectDeg: number, toward: number) =>
      chPerH(
        surfaceRosTowardFtPerMin(
          surfaceFire({ ...behaveLw, windFromDeg, aspectDeg }),
          toward,
          'ignitionPoint',
        ),
      )
    expectClose(at(280, 135, 30), 4.180938)
    expectClose(at(0, 45, 90), 3.438243)
    expectClose(at(280, 263, 285), 2.944975)
  })
})

describe('surface fire against BehavePlus 6', () => {
  it('GR2, 1-h 3 %, live herbaceous 30 %, 10 mph 20-ft wind, no slope: 46.15 ft/min, length-to-width 2.236', () => {
    // GR2 has no 10-h, 100-h or woody load, so those moistures do not enter the result.
    const gr2 = {
      fuelModel: model('gr2'),
      moisture: BEHAVEPLUS_GR2_MOISTURE,
      windSpeedMph: 10,
      windHeight: '20ft',
      windFromDeg: 0,
      slopePercent: 0,
      aspectDeg: 0,
    } as const
    const fire = surfaceFire(gr2)
    expectClose(fire.rosFtPerMin, 46.15)
    expectClose(fire.lengthToWidth, 2.236)
    const otherMoistures = surfaceFire({
      ...gr2,
      moisture: { ...gr2.moisture, tenHourPercent: 12, hundredHourPercent: 15, liveWoodyPercent: 200 },
    })
    expect(otherMoistures.rosFtPerMin).toBe(fire.rosFtPerMin)
  })
})
