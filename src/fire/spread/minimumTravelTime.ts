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
// Rates change by period (hourly wind): along a line (or a step), each stretch runs at the rates of the
// period the fire is in when it gets there, so a line that crosses the hour runs on at the next hour's
// rates from the point it reached on the hour; where the wind turns, the step from a burned cell lets
// the path bend there.

/** Per cell of one period: the fire ellipse's head rate, eccentricity and heading. */
export interface CellEllipses {
  /** Head fire spread rate, m/min; 0 where the cell does not burn. NaN counts as 0. */
  readonly headRosMPerMin: ArrayLike<number>
  readonly eccentricity: ArrayLike<number>
  /** Direction the head fire travels, degrees clockwise from north. */
  readonly maxSpreadDirDeg: ArrayLike<number>
}

/**
 * The same ellipses as the search uses them (ellipseRates()): 1 / (R (1 − e)) in min/m (Infinity where
 * the cell does not burn) and e cos(heading), e sin(heading). A caller that reuses a block's fire
 * behaviour for many searches (a consequence run's thousands of fires) converts it once.
 */
export interface EllipseRates {
  readonly inv: Float32Array
  readonly ex: Float32Array
  readonly ey: Float32Array
}

/** The search's form of `n` cells' ellipses (see EllipseRates). */
export function ellipseRates(e: CellEllipses, n: number): EllipseRates {
  const out = { inv: new Float32Array(n), ex: new Float32Array(n), ey: new Float32Array(n) }
  for (let i = 0; i < n; i++)
    setRate(out, i, e.headRosMPerMin[i] ?? 0, e.eccentricity[i] ?? 0, e.maxSpreadDirDeg[i] ?? 0)
  return out
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
  readonly ellipses?: (period: number) => CellEllipses
  /**
   * Instead of `ellipses`: the ellipses of one block of `blockSize` × `blockSize` cells (block column
   * `bc`, row `br`; clipped at the window's edge, row-major within the block), asked for only when the
   * fire comes near it — so a fire that burns a small part of a large window costs little.
   */
  readonly blockEllipses?: (period: number, bc: number, br: number) => CellEllipses | EllipseRates
  /** A power of two (default 32). */
  readonly blockSize?: number
  readonly periods?: number
  readonly periodMinutes?: number
  /** Longest straight line, in cells, before a path must bend at a cell centre (default: no limit). */
  readonly maxLineCells?: number
}

/** The 8 neighbours as column and row offsets. */
const NEIGHBOUR_DC = Int8Array.from([1, 1, 0, -1, -1, -1, 0, 1])
const NEIGHBOUR_DR = Int8Array.from([0, 1, 1, 1, 0, -1, -1, -1])

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
  const rateCache = new Map<number, PeriodRates>()
  const ratesOf = (p: number): PeriodRates => {
    let r = rateCache.get(p)
    if (!r) {
      r = periodRates(input, p)
      rateCache.set(p, r)
    }
    return r
  }
  const line = lineCost(width, input.cellWidthM, input.cellHeightM, periods, periodMinutes, ratesOf)
  const heap = new MinHeap()
  for (const c of input.ignitionCells) {
    if (c < 0 || c >= n) continue
    const first = ratesOf(0)
    first.ensure(c % width, Math.floor(c / width))
    if (!(first.inv[c]! < Infinity)) continue
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
    const col = u % width
    const row = (u - col) / width
    const s = source[u]!
    const sCol = s % width
    const sRow = (s - sCol) / width
    const viaSource = s !== u
    for (let k = 0; k < 8; k++) {
      const c2 = col + NEIGHBOUR_DC[k]!
      const r2 = row + NEIGHBOUR_DR[k]!
      if (c2 < 0 || c2 >= width || r2 < 0 || r2 >= height) continue
      const v = r2 * width + c2
      if (done[v]) continue
      let best = t + line(col, row, c2, r2, t)
      let bestSource = u
      // The line from s to v leaves s at its final arrival time, so its cost is the same whichever of
      // v's neighbours asks: where v already holds it (source[v] = s), it cannot improve v — skip the
      // walk along the line (most cells are reached from one source by several neighbours in turn).
      if (viaSource && source[v] !== s && Math.max(Math.abs(c2 - sCol), Math.abs(r2 - sRow)) <= maxLine) {
        // Only a time below both the step's and v's own can change v: the walk stops beyond it.
        const bound = Math.min(best, arrival[v]!) - arrival[s]!
        const ts = arrival[s]! + line(sCol, sRow, c2, r2, arrival[s]!, bound)
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
 * Travel time along the straight line between two cell centres, leaving the first at minute `t0`: the
 * length in each cell it crosses over that cell's rate in the line's direction (Amanatides & Woo's grid
 * traversal), with the rates of the period the fire is in at that point of the line (a line that
 * crosses the hour runs on with the next hour's rates from where it is on the hour). Infinity if it
 * crosses, or passes the corner of, a cell that does not burn. Stops early (answering more than
 * `budget`) once the time exceeds `budget`.
 */
function lineCost(
  width: number,
  cellWidthM: number,
  cellHeightM: number,
  periods: number,
  periodMinutes: number,
  ratesOf: (period: number) => PeriodRates,
) {
  return (c0: number, r0: number, c1: number, r1: number, t0: number, budget = Infinity): number => {
    let p = Math.min(periods - 1, Math.floor(t0 / periodMinutes))
    let rates = ratesOf(p)
    let boundary = p < periods - 1 ? (p + 1) * periodMinutes - t0 : Infinity
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
      if (!rates.ready[(r >> rates.shift) * rates.blocksWide + (c >> rates.shift)]) rates.ensure(c, r)
      let iw = rates.inv[cell]!
      if (iw === Infinity) return Infinity
      const tNext = Math.min(nextC, nextR, 1)
      let length = (tNext - t) * lengthM
      let step = length * iw * (1 - rates.ex[cell]! * cos - rates.ey[cell]! * sin)
      while (cost + step > boundary) {
        // The hour ends inside this cell: the rest of it at the next hour's rates.
        const f = (boundary - cost) / step
        cost = boundary
        length *= 1 - f
        p += 1
        rates = ratesOf(p)
        boundary = p < periods - 1 ? (p + 1) * periodMinutes - t0 : Infinity
        rates.ensure(c, r)
        iw = rates.inv[cell]!
        if (iw === Infinity) return Infinity
        step = length * iw * (1 - rates.ex[cell]! * cos - rates.ey[cell]! * sin)
      }
      cost += step
      if (tNext >= 1 || cost > budget) return cost
      t = tNext
      if (Math.abs(nextC - nextR) < 1e-12) {
        // Through a corner: the two cells beside it must burn too.
        rates.ensure(c + stepC, r)
        rates.ensure(c, r + stepR)
        if (rates.inv[r * width + c + stepC] === Infinity || rates.inv[(r + stepR) * width + c] === Infinity)
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
  readonly inv: Float32Array
  /** e cos(heading), e sin(heading). */
  readonly ex: Float32Array
  readonly ey: Float32Array
  /** 1 where a block's rates are filled in; cell (c, r) is in block (r >> shift) * blocksWide + (c >> shift). */
  readonly ready: Uint8Array
  readonly shift: number
  readonly blocksWide: number
  /** Fills in the block of cell (c, r) if it is not yet. */
  ensure(c: number, r: number): void
}

function setRate(rates: EllipseRates, i: number, head: number, eccentricity: number, dirDeg: number): void {
  const ecc = Math.min(0.9999, Math.max(0, eccentricity))
  if (!(head > 0)) {
    rates.inv[i] = Infinity
    return
  }
  const dir = (dirDeg * Math.PI) / 180
  rates.inv[i] = 1 / (head * (1 - ecc))
  rates.ex[i] = Number.isFinite(dir) ? ecc * Math.cos(dir) : 0
  rates.ey[i] = Number.isFinite(dir) ? ecc * Math.sin(dir) : 0
}

/**
 * The rate arrays of each period are reused from call to call (a thread runs one search at a time, and
 * a block's rates are written before they are read), so thousands of small fires in a consequence run
 * do not allocate and collect them each time.
 */
const scratch: { inv: Float32Array; ex: Float32Array; ey: Float32Array }[] = []
const MAX_SCRATCH_CELLS = 1 << 22

function scratchRates(period: number, n: number) {
  if (n > MAX_SCRATCH_CELLS)
    return { inv: new Float32Array(n), ex: new Float32Array(n), ey: new Float32Array(n) }
  let s = scratch[period]
  if (!s || s.inv.length < n) {
    const size = Math.max(n, 1 << 16)
    s = { inv: new Float32Array(size), ex: new Float32Array(size), ey: new Float32Array(size) }
    scratch[period] = s
  }
  return { inv: s.inv.subarray(0, n), ex: s.ex.subarray(0, n), ey: s.ey.subarray(0, n) }
}

function periodRates(input: TravelTimeInput, period: number): PeriodRates {
  const { width, height } = input
  const n = width * height
  const { inv, ex, ey } = scratchRates(period, n)
  const blocks = input.blockEllipses
  if (!blocks) {
    if (!input.ellipses) throw new Error('minimumTravelTime needs ellipses or blockEllipses')
    const e = input.ellipses(period)
    const rates: PeriodRates = {
      inv,
      ex,
      ey,
      ready: new Uint8Array([1]),
      shift: 30,
      blocksWide: 1,
      ensure: () => {},
    }
    for (let i = 0; i < n; i++)
      setRate(rates, i, e.headRosMPerMin[i] ?? 0, e.eccentricity[i] ?? 0, e.maxSpreadDirDeg[i] ?? 0)
    return rates
  }
  const size = input.blockSize ?? 32
  const shift = Math.round(Math.log2(size))
  if (1 << shift !== size) throw new Error(`blockSize ${size} is not a power of two`)
  const blocksWide = Math.ceil(width / size)
  const ready = new Uint8Array(blocksWide * Math.ceil(height / size))
  const rates: PeriodRates = {
    inv,
    ex,
    ey,
    ready,
    shift,
    blocksWide,
    ensure(c: number, r: number) {
      if (c < 0 || r < 0 || c >= width || r >= height) return
      const bc = c >> shift
      const br = r >> shift
      const b = br * blocksWide + bc
      if (ready[b]) return
      ready[b] = 1
      const e = blocks(period, bc, br)
      const c0 = bc << shift
      const r0 = br << shift
      const cols = Math.min(size, width - c0)
      const rows = Math.min(size, height - r0)
      if ('inv' in e) {
        // Already converted: copy row by row.
        for (let y = 0; y < rows; y++) {
          const from = y * cols
          const to = (r0 + y) * width + c0
          inv.set(e.inv.subarray(from, from + cols), to)
          ex.set(e.ex.subarray(from, from + cols), to)
          ey.set(e.ey.subarray(from, from + cols), to)
        }
        return
      }
      for (let y = 0; y < rows; y++)
        for (let x = 0; x < cols; x++) {
          const k = y * cols + x
          setRate(
            rates,
            (r0 + y) * width + c0 + x,
            e.headRosMPerMin[k] ?? 0,
            e.eccentricity[k] ?? 0,
            e.maxSpreadDirDeg[k] ?? 0,
          )
        }
    },
  }
  return rates
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
