import { describe, expect, it } from 'vitest'
import { allFuelModels, findFuelModel, isBurnable } from './fuelModels'
import { herbaceousTransferFraction, describeFuelbed } from './fuelbed'
import { GS4_LOW_MOISTURE, model } from './testing'

// Spot values of config/fuel-models.yaml against the published tables: Anderson (1982) GTR INT-122
// (tons/acre, ft, %) and Scott & Burgan (2005) GTR RMRS-153 Table 7 (tons/acre, 1/ft, ft, %, BTU/lb).
const row = (code: string) => {
  const m = model(code)
  const l = m.loadTonsPerAcre
  return [
    l.oneHour,
    l.tenHour,
    l.hundredHour,
    l.liveHerb,
    l.liveWoody,
    m.depthFt,
    m.deadMoistureOfExtinctionPercent,
  ]
}

describe('fuel model tables', () => {
  it('holds the 13 Anderson and the 40 Scott & Burgan models', () => {
    expect(allFuelModels.filter((m) => m.set === 'anderson13').map((m) => m.number)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
    ])
    const sb = allFuelModels.filter((m) => m.set === 'scottBurgan40').map((m) => m.code)
    expect(sb).toHaveLength(40)
    for (const prefix of ['GR', 'GS', 'SH', 'TU', 'TL', 'SB'])
      expect(sb.filter((c) => c.startsWith(prefix)).length).toBeGreaterThan(0)
  })

  it('Anderson (1982): FM1, FM4, FM10, FM13 loads, depth and extinction moisture', () => {
    expect(row('FM1')).toEqual([0.74, 0, 0, 0, 0, 1, 12])
    expect(row('FM4')).toEqual([5.01, 4.01, 2, 0, 5.01, 6, 20])
    expect(row('FM10')).toEqual([3.01, 2, 5.01, 0, 2, 1, 25])
    expect(row('FM13')).toEqual([7.01, 23.04, 28.05, 0, 0, 3, 25])
  })

  it('Scott & Burgan (2005): GR2, GS4, SH5, TU5, TL8, SB4 loads, depth and extinction moisture; SAVs; GR6 heat content', () => {
    expect(row('GR2')).toEqual([0.1, 0, 0, 1, 0, 1, 15])
    expect(row('GS4')).toEqual([1.9, 0.3, 0.1, 3.4, 7.1, 2.1, 40])
    expect(row('SH5')).toEqual([3.6, 2.1, 0, 0, 2.9, 6, 15])
    expect(row('TU5')).toEqual([4, 4, 3, 0, 3, 1, 25])
    expect(row('TL8')).toEqual([5.8, 1.4, 1.1, 0, 0, 0.3, 35])
    expect(row('SB4')).toEqual([5.25, 3.5, 5.25, 0, 0, 2.7, 25])
    expect(model('GS4').savPerFt).toEqual({ oneHour: 1800, liveHerb: 1600, liveWoody: 1600 })
    expect(model('SH5').savPerFt.oneHour).toBe(750)
    expect(model('GR6').heatContentBtuPerLb).toEqual({ dead: 9000, live: 9000 })
    expect(model('GS4').dynamic).toBe(true)
    expect(model('TL8').dynamic).toBe(false)
  })

  it('finds a model by number, numeric string or code in any case', () => {
    expect(findFuelModel(124)?.code).toBe('GS4')
    expect(findFuelModel('124')?.code).toBe('GS4')
    expect(findFuelModel('gs4')?.number).toBe(124)
    expect(findFuelModel('fm10')?.number).toBe(10)
    expect(findFuelModel('XX9')).toBeUndefined()
    expect(findFuelModel(14)).toBeUndefined()
  })

  it('non-burnable classes burn nothing', () => {
    for (const code of ['NB1', 'NB2', 'NB3', 'NB8', 'NB9']) expect(isBurnable(model(code))).toBe(false)
    expect(isBurnable(model('GR1'))).toBe(true)
  })
})

describe('dynamic herbaceous load transfer (Scott & Burgan 2005)', () => {
  it('moves all the herb load below 30 % moisture, none above 120 %, linearly between', () => {
    expect(herbaceousTransferFraction(0.25)).toBe(1)
    expect(herbaceousTransferFraction(0.3)).toBeCloseTo(1, 2)
    expect(herbaceousTransferFraction(0.75)).toBeCloseTo(0.5, 2)
    expect(herbaceousTransferFraction(1.2)).toBeCloseTo(0, 2)
    expect(herbaceousTransferFraction(1.5)).toBe(0)
  })

  it('GS4 at 60 % herb moisture: 1.333 − 1.11 × 0.6 = 66.7 % of 3.4 t/ac cured; a static model cures nothing', () => {
    expect(describeFuelbed(model('GS4'), GS4_LOW_MOISTURE).curedHerbLoadTonsPerAcre).toBeCloseTo(
      3.4 * (1.333 - 1.11 * 0.6),
      9,
    )
    expect(describeFuelbed(model('FM2'), GS4_LOW_MOISTURE).curedHerbLoadTonsPerAcre).toBe(0)
  })
})
