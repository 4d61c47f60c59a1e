import { describe, expect, it } from 'vitest'
import { crownFire } from './crownFire'
import { fireBehaviourGrid } from './fireBehaviourGrid'
import { findFuelModel } from './fuelModels'
import { surfaceFire } from './surfaceFire'
import { GS4_LOW_MOISTURE as moisture } from './testing'

const canopy = { coverPercent: 50, heightFt: 60 }
const canopyFuel = {
  canopyHeightFt: 60,
  canopyBaseHeightFt: 6,
  canopyBulkDensityKgPerM3: 0.2,
  foliarMoisturePercent: 100,
}

/** One cell of GS4 under a canopy, on a slope, through fireBehaviourGrid. */
function gridCell(slopePercent: number, aspectDeg: number, windMph: number, windFromDeg: number) {
  return fireBehaviourGrid(
    {
      width: 1,
      height: 1,
      fuelModel: [124],
      slopePercent: [slopePercent],
      aspectDeg: [aspectDeg],
      missing: new Uint8Array(1),
      canopyCoverPercent: [canopy.coverPercent],
      canopyHeightFt: [canopy.heightFt],
      canopyBaseHeightFt: [canopyFuel.canopyBaseHeightFt],
      canopyBulkDensityKgPerM3: [canopyFuel.canopyBulkDensityKgPerM3],
    },
    { moisture, windSpeedMph: windMph, windFromDeg, windHeight: '20ft' },
  )
}

function pointCell(slopePercent: number, aspectDeg: number, windMph: number, windFromDeg: number) {
  const surface = surfaceFire({
    fuelModel: findFuelModel(124)!,
    moisture,
    windSpeedMph: windMph,
    windHeight: '20ft',
    windFromDeg,
    slopePercent,
    aspectDeg,
    canopy,
  })
  return crownFire(surface, canopyFuel, moisture, windMph, { slopePercent, aspectDeg, windFromDeg })
}

describe('fireBehaviourGrid crown fire over terrain', () => {
  it('vectors fuel model 10 over the slope for the crown rate, as crownFire() with terrain (FlamMap)', () => {
    // 20 mph from the south up a 60 % north-rising slope (it faces south, 180°): an active crown fire.
    const point = pointCell(60, 180, 20, 180)
    expect(point.fireType).toBe(3)
    const grid = gridCell(60, 180, 20, 180)
    expect(grid.fireType[0]).toBe(3)
    expect(grid.rosFtPerMin[0]).toBeCloseTo(point.rosFtPerMin, 3)
    expect(grid.firelineIntensityBtuPerFtPerS[0]).toBeCloseTo(point.firelineIntensityBtuPerFtPerS, 2)
    // The slope speeds the crown fire beyond the flat-ground rate.
    const flat = gridCell(0, 0, 20, 180)
    expect(grid.rosFtPerMin[0]).toBeGreaterThan(flat.rosFtPerMin[0]! * 1.1)
  })

  it('heads where the crown fire heads when wind and slope differ', () => {
    // Wind from the west, slope rising to the north: the crown heads between east and north.
    const point = pointCell(60, 180, 20, 270)
    expect(point.fireType).toBe(3)
    const grid = gridCell(60, 180, 20, 270)
    expect(grid.fireType[0]).toBe(3)
    expect(grid.rosFtPerMin[0]).toBeCloseTo(point.rosFtPerMin, 3)
    expect(grid.maxSpreadDirDeg[0]).toBeCloseTo(point.crownMaxSpreadDirDeg, 2)
    expect(point.crownMaxSpreadDirDeg).toBeGreaterThan(0)
    expect(point.crownMaxSpreadDirDeg).toBeLessThan(90)
  })
})
