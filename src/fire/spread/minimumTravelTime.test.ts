import { describe, expect, it } from 'vitest'
import { findFuelModel } from '../fuelModels'
import { surfaceFire } from '../surfaceFire'
import { ellipseRates, minimumTravelTime, type CellEllipses } from './minimumTravelTime'
import { GS4_LOW_MOISTURE as moisture } from '../testing'

const M_PER_FT = 0.3048
const CELL_M = 30
const SIZE = 321
const CENTRE = 160 * SIZE + 160

function uniformFire(windMph: number, windFromDeg: number) {
  const fuelModel = findFuelModel('GS2')!
  return surfaceFire({
    fuelModel,
    moisture,
    windSpeedMph: windMph,
    windHeight: '20ft',
    windFromDeg,
    slopePercent: 0,
    aspectDeg: 0,
  })
}

function uniform(
  fire: ReturnType<typeof surfaceFire>,
  blocked: (col: number, row: number) => boolean = () => false,
): CellEllipses {
  const n = SIZE * SIZE
  const head = new Float32Array(n)
  for (let i = 0; i < n; i++)
    head[i] = blocked(i % SIZE, Math.floor(i / SIZE)) ? 0 : fire.rosFtPerMin * M_PER_FT
  return {
    headRosMPerMin: head,
    eccentricity: new Float32Array(n).fill(fire.eccentricity),
    maxSpreadDirDeg: new Float32Array(n).fill(fire.maxSpreadDirDeg),
  }
}

function run(ellipses: CellEllipses, hours: number) {
  return minimumTravelTime({
    width: SIZE,
    height: SIZE,
    cellWidthM: CELL_M,
    cellHeightM: CELL_M,
    ignitionCells: [CENTRE],
    maxMinutes: hours * 60,
    ellipses: () => ellipses,
  })
}

const burnedAreaM2 = (arrival: Float64Array, minutes: number) =>
  arrival.reduce((n, t) => (t <= minutes ? n + 1 : n), 0) * CELL_M * CELL_M

describe('minimum travel time on a uniform landscape: the acceptance ellipse', () => {
  for (const [windMph, windFrom] of [
    [10, 225],
    [20, 0],
    [5, 100],
    [15, 300],
  ] as const)
    it(`burned area after 1–6 h is within 3 % of π a b, a = (head + backing) t / 2, b = flanking t (${windMph} mph 20-ft from ${windFrom}°)`, () => {
      const fire = uniformFire(windMph, windFrom)
      const [head, back, flank] = [fire.rosFtPerMin, fire.backingRosFtPerMin, fire.flankingRosFtPerMin].map(
        (r) => r * M_PER_FT,
      ) as [number, number, number]
      // Cells small enough that the first hour's ellipse is 20 cells long and 16 wide.
      const cell = Math.min((head * 60) / 20, (flank * 60 * 2) / 16)
      // A grid holding the 6-hour ellipse (centre (head − backing) t / 2 downwind of the ignition).
      const t6 = 360
      const a6 = ((head + back) * t6) / 2
      const b6 = flank * t6
      const dir = (fire.maxSpreadDirDeg * Math.PI) / 180
      const halfE = Math.hypot(a6 * Math.sin(dir), b6 * Math.cos(dir)) / cell + 3
      const halfN = Math.hypot(a6 * Math.cos(dir), b6 * Math.sin(dir)) / cell + 3
      const offE = ((((head - back) * t6) / 2) * Math.sin(dir)) / cell
      const offN = ((((head - back) * t6) / 2) * Math.cos(dir)) / cell
      const width = Math.ceil(2 * halfE) + 1
      const height = Math.ceil(2 * halfN) + 1
      const igCol = Math.round(halfE - offE)
      const igRow = Math.round(halfN + offN)
      const n = width * height
      const arrival = minimumTravelTime({
        width,
        height,
        cellWidthM: cell,
        cellHeightM: cell,
        ignitionCells: [igRow * width + igCol],
        maxMinutes: t6,
        ellipses: () => ({
          headRosMPerMin: new Float32Array(n).fill(head),
          eccentricity: new Float32Array(n).fill(fire.eccentricity),
          maxSpreadDirDeg: new Float32Array(n).fill(fire.maxSpreadDirDeg),
        }),
      })
      for (let h = 1; h <= 6; h++) {
        const t = h * 60
        const ellipse = Math.PI * (((head + back) * t) / 2) * (flank * t)
        const burned = arrival.reduce((k, x) => (x <= t ? k + 1 : k), 0) * cell * cell
        expect(burned / ellipse, `hour ${h}: burned / ellipse`).toBeGreaterThan(0.97)
        expect(burned / ellipse, `hour ${h}: burned / ellipse`).toBeLessThan(1.03)
      }
    })
})

describe('minimum travel time on a uniform landscape', () => {
  it('heads where the ellipse heads: the farthest burned cell lies along the direction of maximum spread', () => {
    const fire = uniformFire(15, 300) // wind from WNW drives the fire ESE (120°)
    const arrival = run(uniform(fire), 3)
    let best = { d: 0, az: 0 }
    arrival.forEach((t, i) => {
      if (!(t <= 180)) return
      const east = ((i % SIZE) - 160) * CELL_M
      const north = (160 - Math.floor(i / SIZE)) * CELL_M
      const d = Math.hypot(east, north)
      if (d > best.d) best = { d, az: ((Math.atan2(east, north) * 180) / Math.PI + 360) % 360 }
    })
    expect(Math.abs(best.az - fire.maxSpreadDirDeg)).toBeLessThan(3)
    expect(best.d / (fire.rosFtPerMin * M_PER_FT * 180)).toBeGreaterThan(0.97)
  })

  it('with no wind and no slope the fire is a circle', () => {
    const fire = uniformFire(0, 0)
    expect(fire.eccentricity).toBe(0)
    const arrival = run(uniform(fire), 6)
    const r = fire.rosFtPerMin * M_PER_FT * 360
    expect(burnedAreaM2(arrival, 360) / (Math.PI * r * r)).toBeGreaterThan(0.97)
    expect(burnedAreaM2(arrival, 360) / (Math.PI * r * r)).toBeLessThan(1.03)
    // Same reach in the eight compass directions (to a cell or two).
    const reach = (dc: number, dr: number) => {
      let k = 0
      while (arrival[CENTRE + (k + 1) * (dr * SIZE + dc)]! <= 360) k++
      return k * Math.hypot(dc, dr) * CELL_M
    }
    for (const [dc, dr] of [
      [1, 0],
      [0, 1],
      [-1, 0],
      [0, -1],
      [1, 1],
      [-1, 1],
      [1, -1],
      [-1, -1],
    ] as const)
      expect(Math.abs(reach(dc, dr) - r)).toBeLessThanOrEqual(2 * CELL_M * Math.SQRT2)
  })

  it('a line of non-burnable cells stops the fire, straight or diagonal', () => {
    const fire = uniformFire(20, 270) // heads east, toward the barriers
    const straight = run(
      uniform(fire, (col) => col === 180),
      6,
    )
    straight.forEach((t, i) => {
      if (i % SIZE >= 180) expect(t).toBe(Infinity)
    })
    expect(straight[CENTRE + 19]).toBeLessThan(Infinity) // it burned up to the barrier
    // A one-cell-wide diagonal line: cells touch only at their corners.
    const diagonal = run(
      uniform(fire, (col, row) => col - row === 20),
      6,
    )
    diagonal.forEach((t, i) => {
      if ((i % SIZE) - Math.floor(i / SIZE) > 20) expect(t).toBe(Infinity)
    })
  })

  it('later arrival times contain earlier ones: isochrones are nested', () => {
    const fire = uniformFire(10, 45)
    const arrival = run(uniform(fire), 4)
    // Every burned cell other than the ignition has a burned neighbour that burned earlier.
    arrival.forEach((t, i) => {
      if (!(t < Infinity) || i === CENTRE) return
      const col = i % SIZE
      const row = Math.floor(i / SIZE)
      let earlier = false
      for (let dr = -3; dr <= 3; dr++)
        for (let dc = -3; dc <= 3; dc++) {
          const j = (row + dr) * SIZE + col + dc
          if (j !== i && arrival[j]! < t) earlier = true
        }
      expect(earlier).toBe(true)
    })
  })
})

describe('minimum travel time with hourly periods', () => {
  it('six hours of the same wind burn the same ellipse as one period (within 3 % of π a b every hour)', () => {
    const fire = uniformFire(10, 270)
    const [head, back, flank] = [fire.rosFtPerMin, fire.backingRosFtPerMin, fire.flankingRosFtPerMin].map(
      (r) => r * M_PER_FT,
    ) as [number, number, number]
    const cell = Math.min((head * 60) / 20, (flank * 60 * 2) / 16)
    const width = 400
    const height = 200
    const n = width * height
    const ellipses = {
      headRosMPerMin: new Float32Array(n).fill(head),
      eccentricity: new Float32Array(n).fill(fire.eccentricity),
      maxSpreadDirDeg: new Float32Array(n).fill(fire.maxSpreadDirDeg),
    }
    const arrival = minimumTravelTime({
      width,
      height,
      cellWidthM: cell,
      cellHeightM: cell,
      ignitionCells: [100 * width + 40],
      maxMinutes: 360,
      ellipses: () => ellipses,
      periods: 6,
      periodMinutes: 60,
    })
    for (let h = 1; h <= 6; h++) {
      const t = h * 60
      const burned = arrival.reduce((k, x) => (x <= t ? k + 1 : k), 0) * cell * cell
      const ratio = burned / (Math.PI * (((head + back) * t) / 2) * (flank * t))
      expect(ratio, `hour ${h}`).toBeGreaterThan(0.97)
      expect(ratio, `hour ${h}`).toBeLessThan(1.03)
    }
  })
})

describe('minimum travel time with fire behaviour per block', () => {
  it('blocks given as ellipses or as converted rates (ellipseRates) give the arrival times of the whole grid', () => {
    // A barrier with a gap and two winds by period, so lines cross blocks, hours and non-burnable cells.
    const blocked = (c: number, r: number) => c === 200 && r > 40 && r < 300
    const periods = [uniform(uniformFire(15, 270), blocked), uniform(uniformFire(8, 200), blocked)]
    const common = {
      width: SIZE,
      height: SIZE,
      cellWidthM: 10,
      cellHeightM: 10,
      ignitionCells: [CENTRE],
      maxMinutes: 180,
      periods: 2,
      periodMinutes: 60,
    }
    const whole = minimumTravelTime({ ...common, ellipses: (p) => periods[p]! })
    const cut = (p: number, bc: number, br: number): CellEllipses => {
      const e = periods[p]!
      const x0 = bc * 32
      const y0 = br * 32
      const w = Math.min(32, SIZE - x0)
      const h = Math.min(32, SIZE - y0)
      const pick = (a: ArrayLike<number>) =>
        Float32Array.from({ length: w * h }, (_, k) => a[(y0 + Math.floor(k / w)) * SIZE + x0 + (k % w)]!)
      return {
        headRosMPerMin: pick(e.headRosMPerMin),
        eccentricity: pick(e.eccentricity),
        maxSpreadDirDeg: pick(e.maxSpreadDirDeg),
      }
    }
    let asked = 0
    const byEllipses = minimumTravelTime({ ...common, blockSize: 32, blockEllipses: cut })
    const byRates = minimumTravelTime({
      ...common,
      blockSize: 32,
      blockEllipses: (p, bc, br) => {
        asked++
        const e = cut(p, bc, br)
        return ellipseRates(e, e.headRosMPerMin.length)
      },
    })
    let burned = 0
    let differ = 0
    for (let i = 0; i < whole.length; i++) {
      if (whole[i]! < Infinity) burned++
      if (byEllipses[i] !== whole[i] || byRates[i] !== whole[i]) differ++
    }
    expect(differ).toBe(0)
    expect(burned).toBeGreaterThan(2000)
    // Only the blocks the fire came near were asked for (11 × 11 blocks per period in all).
    expect(asked).toBeLessThan(2 * 121)
    expect(asked).toBeGreaterThan(0)
  })
})
