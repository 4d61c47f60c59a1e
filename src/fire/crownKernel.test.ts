import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { crownFire } from './crownFire'
import { crownAtCell, crownKernel, crownKernelFromModel10, type CellCrownFire } from './crownKernel'
import { fuelKernel } from './fuelKernel'
import { allFuelModels } from './fuelModels'
import { surfaceFire } from './surfaceFire'

const close = (a: number, b: number) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(b)))
const burnable = allFuelModels.filter((m) => m.set !== 'nonBurnable')

describe('crownKernel + crownAtCell', () => {
  it('equals crownFire() for any surface fire and canopy', () => {
    let crowning = 0
    fc.assert(
      fc.property(
        fc.constantFrom(...burnable),
        fc.record({
          oneHourPercent: fc.double({ min: 2, max: 15, noNaN: true }),
          tenHourPercent: fc.double({ min: 2, max: 15, noNaN: true }),
          hundredHourPercent: fc.double({ min: 2, max: 15, noNaN: true }),
          liveHerbPercent: fc.double({ min: 30, max: 150, noNaN: true }),
          liveWoodyPercent: fc.double({ min: 60, max: 150, noNaN: true }),
        }),
        fc.double({ min: 0, max: 40, noNaN: true }),
        fc.double({ min: 0, max: 80, noNaN: true }),
        fc.record({
          canopyHeightFt: fc.double({ min: 0, max: 120, noNaN: true }),
          canopyBaseHeightFt: fc.double({ min: 0, max: 30, noNaN: true }),
          canopyBulkDensityKgPerM3: fc.double({ min: 0, max: 0.4, noNaN: true }),
          foliarMoisturePercent: fc.double({ min: 70, max: 150, noNaN: true }),
        }),
        (fuelModel, moisture, wind, slope, canopy) => {
          const surface = surfaceFire({
            fuelModel,
            moisture,
            windSpeedMph: wind,
            windHeight: '20ft',
            windFromDeg: 0,
            slopePercent: slope,
            aspectDeg: 180,
          })
          if (!(surface.rosFtPerMin > 0)) return
          const ref = crownFire(surface, canopy, moisture, wind)
          const out: CellCrownFire = {
            fireType: 1,
            rosFtPerMin: 0,
            firelineIntensityBtuPerFtPerS: 0,
            flameLengthFt: 0,
          }
          const k = crownKernel(moisture, wind)
          crownAtCell(k, surface, canopy, out)
          expect(out.fireType).toBe(ref.fireType)
          close(out.rosFtPerMin, ref.rosFtPerMin)
          close(out.firelineIntensityBtuPerFtPerS, ref.firelineIntensityBtuPerFtPerS)
          close(out.flameLengthFt, ref.flameLengthFt)
          close(k.crownLengthToWidth, ref.crownLengthToWidth)
          if (ref.fireType > 1) crowning++
        },
      ),
      { numRuns: 600 },
    )
    expect(crowning).toBeGreaterThan(50)
  })

  it('equals crownFire() across a fine sweep of canopy base height and bulk density (every class boundary)', () => {
    const moisture = {
      oneHourPercent: 4,
      tenHourPercent: 5,
      hundredHourPercent: 6,
      liveHerbPercent: 70,
      liveWoodyPercent: 80,
    }
    const types = new Set<number>()
    for (const code of ['TU5', 'SH5', 'TL8', 'GS2'])
      for (const wind of [5, 15, 30]) {
        const fuelModel = allFuelModels.find((m) => m.code === code)!
        const surface = surfaceFire({
          fuelModel,
          moisture,
          windSpeedMph: wind,
          windHeight: '20ft',
          windFromDeg: 0,
          slopePercent: 20,
          aspectDeg: 180,
        })
        const k = crownKernel(moisture, wind)
        const out: CellCrownFire = {
          fireType: 1,
          rosFtPerMin: 0,
          firelineIntensityBtuPerFtPerS: 0,
          flameLengthFt: 0,
        }
        for (let cbh = 0; cbh <= 20; cbh += 1)
          for (let cbd = 0.005; cbd <= 0.5; cbd += 0.0025) {
            const canopy = {
              canopyHeightFt: 60,
              canopyBaseHeightFt: cbh,
              canopyBulkDensityKgPerM3: cbd,
              foliarMoisturePercent: 100,
            }
            const ref = crownFire(surface, canopy, moisture, wind)
            crownAtCell(k, surface, canopy, out)
            expect(out.fireType, `${code} ${wind} mph CBH ${cbh} ft CBD ${cbd}`).toBe(ref.fireType)
            close(out.rosFtPerMin, ref.rosFtPerMin)
            close(out.firelineIntensityBtuPerFtPerS, ref.firelineIntensityBtuPerFtPerS)
            types.add(ref.fireType)
          }
      }
    expect([...types].sort()).toEqual([1, 2, 3])
  })

  it('crownKernelFromModel10 equals crownKernel (Rothermel’s 3.34 × fuel model 10 at a wind adjustment of 0.4)', () => {
    const model10 = allFuelModels.find((m) => m.number === 10)!
    fc.assert(
      fc.property(
        fc.record({
          oneHourPercent: fc.double({ min: 2, max: 30, noNaN: true }),
          tenHourPercent: fc.double({ min: 2, max: 30, noNaN: true }),
          hundredHourPercent: fc.double({ min: 2, max: 30, noNaN: true }),
          liveHerbPercent: fc.double({ min: 30, max: 300, noNaN: true }),
          liveWoodyPercent: fc.double({ min: 30, max: 300, noNaN: true }),
        }),
        fc.double({ min: 0, max: 80, noNaN: true }),
        (moisture, wind) => {
          const a = crownKernel(moisture, wind)
          const b = crownKernelFromModel10(fuelKernel(model10, moisture), wind)
          close(b.crownRosFtPerMin, a.crownRosFtPerMin)
          close(b.crownLengthToWidth, a.crownLengthToWidth)
        },
      ),
      { numRuns: 300 },
    )
  })
})
