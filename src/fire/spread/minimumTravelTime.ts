// Fire arrival time over a grid by minimum travel time (Finney 2002): the fire reaches each cell along
// the path of least travel time from an ignition, where running a length L across a cell in direction θ
// takes L / R(θ), R(θ) = R (1 − e) / (1 − e cos(θ − heading)) the spread rate of that cell's fire
// ellipse along a ray from its rear focus (the ellipse of the head, backing and flanking rates; so on a
// uniform landscape the burned area after t is that ellipse grown to t).
//
// Paths are straight lines between cell centres, found as Theta* finds any-angle paths: Dijkstra's
// algorithm over the 8 neighbours, where each burned cell remembers the source (a cell centre) its fire
// ran to it from in a straight line; a neighbour is reached either by a short step from the cell or by
// the straight line from the cell's source, whichever is quicker (a line is cut off by any non-burnable
// cell it crosses or touches at a corner). A fixed set of step directions cannot do this: with 32
// directions a fire of length-to-width 6.8 burned only 57 % of its ellipse in the first hour.
// Rates change by period (hourly wind): a line from a source uses the rates of the period that source
// burned in and only while the cell it extends from burned in the same period, so at each hour the
// burning front becomes the source of the next hour's spread.

/** Per cell of one period: the fire ellipse's head rate, eccentricity and heading. */
export interface CellEllipses {
  /** Head fire spread rate, m/min; 0 where the cell does not burn. NaN counts as 0. */
  readonly headRosMPerMin: ArrayLike<number>
  readonly eccentricity: ArrayLike<number>
  /** Direction the head fire travels, degrees clockwise from north. */
  readonly maxSpreadDirDeg: ArrayLike<number>
}

export interface TravelTimeInput {
  readonly width: number
  readonly height: number
  /** Cell size east–west and north–south, m. */
  readonly cellWidthM: number
  readonly cellHeightM: number
  /** Row-major indices of the ignition cells (arrival 0). */
  readonly ignitionCells: readonly number[]
  /** Stop once every cell reachable within this many minutes has its time. */
  readonly maxMinutes: number
  /** The ellipses of period `p` (0, 1, …; each `periodMinutes` long); the last of `periods` holds on. */
  readonly ellipses: (period: number) => CellEllipses
  readonly periods?: number
  readonly periodMinutes?: number
  /** Longest straight line, in cells, before a path must bend at a cell centre (default: no limit). */
  readonly maxLineCells?: number
}

const NEIGHBOURS = [
  [1, 0],
  [1, 1],
  [0, 1],
  [-1, 1],
  [-1, 0],
  [-1, -1],
  [0, -1],
  [1, -1],
] as const

/** Minutes from ignition to each cell; Infinity where the fire does not arrive within maxMinutes. */
export function minimumTravelTime(input: TravelTimeInput): Float64Array {
  const { width, height, maxMinutes } = input
  const n = width * height
  const arrival = new Float64Array(n).fill(Infinity)
  const source = new Int32Array(n).fill(-1)
  const done = new Uint8Array(n)
  const periods = Math.max(1, input.periods ?? 1)
  const periodMinutes = input.periodMinutes ?? 60
  const maxLine = input.maxLineCells ?? Infinity
  const periodOf = (t: number) => Math.min(periods - 1, Math.floor(t / periodMinutes))
  const rateCache = new Map<number, PeriodRates>()
  const ratesOf = (p: number): PeriodRates => {
    let r = rateCache.get(p)
    if (!r) {
      r = periodRates(input.ellipses(p), n)
      rateCache.set(p, r)
    }
    return r
  }
  const line = lineCost(width, input.cellWidthM, input.cellHeightM)
  const heap = new MinHeap()
  for (const c of input.ignitionCells) {
    if (c < 0 || c >= n || !(ratesOf(0).inv[c]! < Infinity)) continue
    arrival[c] = 0
    source[c] = c
    heap.push(0, c)
  }
  while (heap.size > 0) {
    const t = heap.topKey()
    const u = heap.pop()
    if (done[u] || t > arrival[u]!) continue
    if (t > maxMinutes) break
    done[u] = 1
    const p = periodOf(t)
    const rates = ratesOf(p)
    const col = u % width
    const row = (u - col) / width
    const s = source[u]!
    const sCol = s % width
    const sRow = (s - sCol) / width
    const viaSource = s !== u && periodOf(arrival[s]!) === p
    for (const [dc, dr] of NEIGHBOURS) {
      const c2 = col + dc
      const r2 = row + dr
      if (c2 < 0 || c2 >= width || r2 < 0 || r2 >= height) continue
      const v = r2 * width + c2
      if (done[v]) continue
      let best = t + line(col, row, c2, r2, rates)
      let bestSource = u
      if (viaSource && Math.max(Math.abs(c2 - sCol), Math.abs(r2 - sRow)) <= maxLine) {
        const ts = arrival[s]! + line(sCol, sRow, c2, r2, rates, best - arrival[s]!)
        if (ts < best) {
          best = ts
          bestSource = s
        }
      }
      if (best < arrival[v]!) {
        arrival[v] = best
        source[v] = bestSource
        heap.push(best, v)
      }
    }
  }
  for (let i = 0; i < n; i++) if (arrival[i]! > maxMinutes) arrival[i] = Infinity
  return arrival
}

/**
 * Travel time along the straight line between two cell centres: the length in each cell it crosses
 * over that cell's rate in the line's direction (Amanatides & Woo's grid traversal). Infinity if it
 * crosses, or passes the corner of, a cell that does not burn. Stops early (answering more than
 * `budget`) once the time exceeds `budget`.
 */
function lineCost(width: number, cellWidthM: number, cellHeightM: number) {
  return (c0: number, r0: number, c1: number, r1: number, rates: PeriodRates, budget = Infinity): number => {
    const { inv, ex, ey } = rates
    const dc = c1 - c0
    const dr = r1 - r0
    const east = dc * cellWidthM
    const north = -dr * cellHeightM
    const lengthM = Math.hypot(east, north)
    const cos = north / lengthM
    const sin = east / lengthM
    const stepC = dc > 0 ? 1 : -1
    const stepR = dr > 0 ? 1 : -1
    const deltaC = dc !== 0 ? 1 / Math.abs(dc) : Infinity
    const deltaR = dr !== 0 ? 1 / Math.abs(dr) : Infinity
    let nextC = deltaC / 2
    let nextR = deltaR / 2
    let c = c0
    let r = r0
    let t = 0
    let cost = 0
    for (;;) {
      const cell = r * width + c
      const iw = inv[cell]!
      if (iw === Infinity) return Infinity
      const tNext = Math.min(nextC, nextR, 1)
      cost += (tNext - t) * lengthM * iw * (1 - ex[cell]! * cos - ey[cell]! * sin)
      if (tNext >= 1 || cost > budget) return cost
      t = tNext
      if (Math.abs(nextC - nextR) < 1e-12) {
        // Through a corner: the two cells beside it must burn too.
        if (inv[r * width + c + stepC] === Infinity || inv[(r + stepR) * width + c] === Infinity)
          return Infinity
        c += stepC
        r += stepR
        nextC += deltaC
        nextR += deltaR
      } else if (nextC < nextR) {
        c += stepC
        nextC += deltaC
      } else {
        r += stepR
        nextR += deltaR
      }
    }
  }
}

interface PeriodRates {
  /** 1 / (R (1 − e)), min/m; Infinity where the cell does not burn. */
  readonly inv: Float64Array
  /** e cos(heading), e sin(heading). */
  readonly ex: Float64Array
  readonly ey: Float64Array
}

function periodRates(e: CellEllipses, n: number): PeriodRates {
  const inv = new Float64Array(n)
  const ex = new Float64Array(n)
  const ey = new Float64Array(n)
  for (let i = 0; i < n; i++) {
    const head = e.headRosMPerMin[i] ?? 0
    const ecc = Math.min(0.9999, Math.max(0, e.eccentricity[i] ?? 0))
    if (!(head > 0)) {
      inv[i] = Infinity
      continue
    }
    const dir = ((e.maxSpreadDirDeg[i] ?? 0) * Math.PI) / 180
    inv[i] = 1 / (head * (1 - ecc))
    ex[i] = Number.isFinite(dir) ? ecc * Math.cos(dir) : 0
    ey[i] = Number.isFinite(dir) ? ecc * Math.sin(dir) : 0
  }
  return { inv, ex, ey }
}

/** A binary min-heap of (time, cell) pairs in typed arrays; stale entries are skipped by the caller. */
class MinHeap {
  private keys = new Float64Array(1024)
  private items = new Int32Array(1024)
  size = 0

  push(key: number, item: number): void {
    if (this.size === this.keys.length) {
      const keys = new Float64Array(this.size * 2)
      keys.set(this.keys)
      this.keys = keys
      const items = new Int32Array(this.size * 2)
      items.set(this.items)
      this.items = items
    }
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (this.keys[parent]! <= key) break
      this.keys[i] = this.keys[parent]!
      this.items[i] = this.items[parent]!
      i = parent
    }
    this.keys[i] = key
    this.items[i] = item
  }

  topKey(): number {
    return this.keys[0]!
  }

  pop(): number {
    const top = this.items[0]!
    const last = --this.size
    const key = this.keys[last]!
    const item = this.items[last]!
    let i = 0
    for (;;) {
      let child = 2 * i + 1
      if (child >= last) break
      if (child + 1 < last && this.keys[child + 1]! < this.keys[child]!) child++
      if (this.keys[child]! >= key) break
      this.keys[i] = this.keys[child]!
      this.items[i] = this.items[child]!
      i = child
    }
    this.keys[i] = key
    this.items[i] = item
    return top
  }
}
