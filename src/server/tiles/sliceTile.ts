import { clipPolygon, clipPolyline, type ClipBox, type ClipPoint } from 'lineclip'
import type { TileData } from './tileData'

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
 * One feature cut into a tile: integer tile coordinates, rings of `{x, y}`; points are one ring
 * of all positions. `k` is its position in the TileData, whose value ids the encoder
 * (mvtEncoder.ts) writes; `properties` (decoded values, built on demand) and `loadGeometry` give
 * it vector-tile-js's shape, which vt-pbf's `fromVectorTileJs` also reads.
 */
export class SlicedFeature {
  constructor(
    readonly id: number,
    readonly type: 1 | 2 | 3,
    readonly k: number,
    readonly geometry: TilePoint[][],
    private readonly data: TileData,
  ) {}

  get properties(): Tags {
    return tagsOf(this.data, this.k)
  }

  loadGeometry(): TilePoint[][] {
    return this.geometry
  }
}

/** A feature's properties from its value ids (missing values left out). */
export function tagsOf(t: TileData, k: number): Tags {
  const tags: Tags = {}
  for (const f of t.fields) {
    const c = f.codes[k] as number
    if (c >= 0) tags[f.name] = (f.numeric ? t.numbers[c] : t.strings[c]) as string | number
  }
  return tags
}

/** Rounds clipped positions to tile units and drops repeated vertices. */
function snap(points: ClipPoint[]): TilePoint[] {
  const out: TilePoint[] = []
  let px = NaN
  let py = NaN
  for (const p of points) {
    const x = Math.round(p[0])
    const y = Math.round(p[1])
    if (x === px && y === py) continue
    out.push({ x, y })
    px = x
    py = y
  }
  return out
}

/** Minus twice the shoelace area in tile coordinates (y down): < 0 for a clockwise ring on screen (geojson-vt's sign). */
export function ringArea(ring: readonly TilePoint[]): number {
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const p = ring[i] as TilePoint
    const q = ring[j] as TilePoint
    a += (p.x - q.x) * (p.y + q.y)
  }
  return a
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
  const out: SlicedFeature[] = []
  for (const k of picked) {
    const r0 = featRing[k] as number
    const r1 = featRing[k + 1] as number
    if (t.kind === 'point') {
      const pts: TilePoint[] = []
      for (let v = ringStart[r0] as number; v < (ringStart[r1] as number); v++) {
        const px = Math.round((coords[2 * v] as number) * scale - ox)
        const py = Math.round((coords[2 * v + 1] as number) * scale - oy)
        if (px >= lo && px <= hi && py >= lo && py <= hi) pts.push({ x: px, y: py })
      }
      if (pts.length) out.push(new SlicedFeature(t.ids[k] as number, 1, k, [pts], t))
      continue
    }
    const polygon = t.kind === 'polygon'
    const rings: TilePoint[][] = []
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
      let pieces: TilePoint[][]
      if (inside) {
        const ring: TilePoint[] = []
        let qx = NaN
        let qy = NaN
        for (let v = v0; v < v1; v++) {
          if ((importance[v] as number) <= sqTol) continue
          const px = Math.round((coords[2 * v] as number) * scale - ox)
          const py = Math.round((coords[2 * v + 1] as number) * scale - oy)
          if (px === qx && py === qy) continue
          ring.push({ x: px, y: py })
          qx = px
          qy = py
        }
        pieces = [ring]
      } else {
        const pts: ClipPoint[] = []
        for (let v = v0; v < v1; v++) {
          if ((importance[v] as number) <= sqTol) continue
          pts.push([(coords[2 * v] as number) * scale - ox, (coords[2 * v + 1] as number) * scale - oy])
        }
        pieces = polygon ? [snap(clipPolygon(pts, box))] : clipPolyline(pts, box).map(snap)
      }
      if (!polygon) {
        for (const line of pieces) if (line.length >= 2) rings.push(line)
        continue
      }
      const ring = pieces[0] as TilePoint[]
      const first = ring[0]
      const last = ring[ring.length - 1]
      if (first && last && (first.x !== last.x || first.y !== last.y)) ring.push({ x: first.x, y: first.y })
      const area = ring.length >= 4 ? ringArea(ring) : 0
      if (area === 0) {
        if (outer) skipPart = true
        continue
      }
      if (area > 0 === outer) ring.reverse()
      rings.push(ring)
    }
    if (rings.length) out.push(new SlicedFeature(t.ids[k] as number, polygon ? 3 : 2, k, rings, t))
  }
  return out
}
