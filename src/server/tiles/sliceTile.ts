import { clipPolygon, clipPolyline, type ClipBox, type ClipPoint } from 'lineclip'
import { tagsOf, type TileData } from './tileData'

export interface SliceOptions {
  extent: number
  buffer: number
  /** Simplification tolerance in tile units (geojson-vt's `tolerance`). */
  tolerance: number
}

export interface TilePoint {
  x: number
  y: number
}

type Tags = Record<string, string | number>

/**
 * The cut geometry of one tile: every kept vertex in one integer array (x, y pairs, tile units),
 * ring r spanning vertices `ringStart[r]..ringEnd[r]-1`. No object per vertex: the encoder reads
 * it straight (mvtEncoder.ts), and a cold tile leaves little garbage behind.
 */
export class TileGeometry {
  xy = new Int32Array(4096)
  n = 0
  readonly ringStart: number[] = []
  readonly ringEnd: number[] = []

  push(x: number, y: number): void {
    if (2 * this.n + 2 > this.xy.length) {
      const bigger = new Int32Array(this.xy.length * 2)
      bigger.set(this.xy)
      this.xy = bigger
    }
    this.xy[2 * this.n] = x
    this.xy[2 * this.n + 1] = y
    this.n += 1
  }

  /** Appends positions rounded to tile units, skipping repeated vertices; returns how many. */
  snap(points: readonly ClipPoint[]): number {
    const from = this.n
    let px = NaN
    let py = NaN
    for (const p of points) {
      const x = Math.round(p[0])
      const y = Math.round(p[1])
      if (x === px && y === py) continue
      this.push(x, y)
      px = x
      py = y
    }
    return this.n - from
  }

  ring(from: number): void {
    this.ringStart.push(from)
    this.ringEnd.push(this.n)
  }

  /** Minus twice the shoelace area of vertices from..n-1 (y down): < 0 for a clockwise ring on screen (geojson-vt's sign). */
  area(from: number): number {
    const xy = this.xy
    let a = 0
    for (let i = from, j = this.n - 1; i < this.n; j = i++)
      a +=
        ((xy[2 * i] as number) - (xy[2 * j] as number)) *
        ((xy[2 * i + 1] as number) + (xy[2 * j + 1] as number))
    return a
  }

  reverse(from: number): void {
    const xy = this.xy
    for (let i = from, j = this.n - 1; i < j; i++, j--) {
      const x = xy[2 * i] as number
      const y = xy[2 * i + 1] as number
      xy[2 * i] = xy[2 * j] as number
      xy[2 * i + 1] = xy[2 * j + 1] as number
      xy[2 * j] = x
      xy[2 * j + 1] = y
    }
  }
}

/**
 * One feature cut into a tile: rings `r0..r1-1` of the tile's TileGeometry (points: one ring of
 * all positions). `k` is its position in the TileData, whose value ids the encoder writes;
 * `properties`, `geometry` and `loadGeometry` (built on demand) give it vector-tile-js's shape,
 * which vt-pbf's `fromVectorTileJs` also reads.
 */
export class SlicedFeature {
  constructor(
    readonly id: number,
    readonly type: 1 | 2 | 3,
    readonly k: number,
    readonly g: TileGeometry,
    readonly r0: number,
    readonly r1: number,
    private readonly data: TileData,
  ) {}

  get properties(): Tags {
    return tagsOf(this.data, this.k)
  }

  get geometry(): TilePoint[][] {
    const out: TilePoint[][] = []
    for (let r = this.r0; r < this.r1; r++) {
      const ring: TilePoint[] = []
      for (let v = this.g.ringStart[r] as number; v < (this.g.ringEnd[r] as number); v++)
        ring.push({ x: this.g.xy[2 * v] as number, y: this.g.xy[2 * v + 1] as number })
      out.push(ring)
    }
    return out
  }

  loadGeometry(): TilePoint[][] {
    return this.geometry
  }
}

/**
 * Cuts the picked features of a TileData into one tile: vertices below the zoom's simplification
 * tolerance skipped, projected to tile units, clipped to the tile plus buffer (lineclip; rings
 * wholly inside skip clipping and are rounded in the same pass), and polygon rings wound as MVT 2
 * wants (outer clockwise on screen = positive shoelace area, holes counter-clockwise).
 */
export function sliceTile(
  t: TileData,
  picked: Iterable<number>,
  z: number,
  x: number,
  y: number,
  opts: SliceOptions,
): SlicedFeature[] {
  const scale = 2 ** z * opts.extent
  const ox = x * opts.extent
  const oy = y * opts.extent
  const lo = -opts.buffer
  const hi = opts.extent + opts.buffer
  const box: ClipBox = [lo, lo, hi, hi]
  const sqTol = (opts.tolerance / scale) ** 2
  const { coords, importance, featRing, ringStart, ringOuter } = t
  const g = new TileGeometry()
  const out: SlicedFeature[] = []
  for (const k of picked) {
    const r0 = featRing[k] as number
    const r1 = featRing[k + 1] as number
    const first = g.ringStart.length
    if (t.kind === 'point') {
      const from = g.n
      for (let v = ringStart[r0] as number; v < (ringStart[r1] as number); v++) {
        const px = Math.round((coords[2 * v] as number) * scale - ox)
        const py = Math.round((coords[2 * v + 1] as number) * scale - oy)
        if (px >= lo && px <= hi && py >= lo && py <= hi) g.push(px, py)
      }
      if (g.n > from) {
        g.ring(from)
        out.push(new SlicedFeature(t.ids[k] as number, 1, k, g, first, first + 1, t))
      }
      continue
    }
    const polygon = t.kind === 'polygon'
    let skipPart = false
    for (let r = r0; r < r1; r++) {
      const outer = ringOuter[r] === 1
      if (outer) skipPart = false
      else if (skipPart) continue
      const v0 = ringStart[r] as number
      const v1 = ringStart[r + 1] as number
      let kept = 0
      let minx = Infinity
      let miny = Infinity
      let maxx = -Infinity
      let maxy = -Infinity
      for (let v = v0; v < v1; v++) {
        if ((importance[v] as number) <= sqTol) continue
        const px = (coords[2 * v] as number) * scale - ox
        const py = (coords[2 * v + 1] as number) * scale - oy
        kept += 1
        if (px < minx) minx = px
        if (px > maxx) maxx = px
        if (py < miny) miny = py
        if (py > maxy) maxy = py
      }
      const outside = maxx < lo || minx > hi || maxy < lo || miny > hi
      if (outside || kept < (polygon ? 4 : 2)) {
        if (outer) skipPart = true
        continue
      }
      const inside = minx >= lo && maxx <= hi && miny >= lo && maxy <= hi
      const from = g.n
      if (inside) {
        let qx = NaN
        let qy = NaN
        for (let v = v0; v < v1; v++) {
          if ((importance[v] as number) <= sqTol) continue
          const px = Math.round((coords[2 * v] as number) * scale - ox)
          const py = Math.round((coords[2 * v + 1] as number) * scale - oy)
          if (px === qx && py === qy) continue
          g.push(px, py)
          qx = px
          qy = py
        }
        if (!polygon) {
          if (g.n - from >= 2) g.ring(from)
          else g.n = from
          continue
        }
      } else {
        const pts: ClipPoint[] = []
        for (let v = v0; v < v1; v++) {
          if ((importance[v] as number) <= sqTol) continue
          pts.push([(coords[2 * v] as number) * scale - ox, (coords[2 * v + 1] as number) * scale - oy])
        }
        if (!polygon) {
          for (const piece of clipPolyline(pts, box)) {
            const at = g.n
            if (g.snap(piece) >= 2) g.ring(at)
            else g.n = at
          }
          continue
        }
        g.snap(clipPolygon(pts, box))
      }
      // A polygon ring: closed, non-degenerate, wound by its role.
      const xy = g.xy
      if (g.n > from) {
        const fx = xy[2 * from] as number
        const fy = xy[2 * from + 1] as number
        if (fx !== xy[2 * g.n - 2] || fy !== xy[2 * g.n - 1]) g.push(fx, fy)
      }
      const area = g.n - from >= 4 ? g.area(from) : 0
      if (area === 0) {
        g.n = from
        if (outer) skipPart = true
        continue
      }
      if (area > 0 === outer) g.reverse(from)
      g.ring(from)
    }
    const last = g.ringStart.length
    if (last > first) out.push(new SlicedFeature(t.ids[k] as number, polygon ? 3 : 2, k, g, first, last, t))
  }
  return out
}
