import { clipPolygon, clipPolyline, type ClipBox, type ClipPoint } from 'lineclip'
import type { TileFeatureLike } from 'vt-pbf'
import type { TileData } from './tileData'

export interface SliceOptions {
  extent: number
  buffer: number
  /** Simplification tolerance in tile units (geojson-vt's `tolerance`). */
  tolerance: number
}

type Tags = Record<string, string | number>

function tagsOf(t: TileData, k: number): Tags {
  const tags: Tags = {}
  for (const f of t.fields) {
    if (f.numbers) {
      const v = f.numbers[k] as number
      if (!Number.isNaN(v)) tags[f.name] = v
    } else if (f.codes) {
      const c = f.codes[k] as number
      if (c >= 0) tags[f.name] = f.dict[c] as string
    }
  }
  return tags
}

/** Rounds to tile units and drops repeated vertices. */
function snap(points: ClipPoint[]): ClipPoint[] {
  const out: ClipPoint[] = []
  let px = NaN
  let py = NaN
  for (const p of points) {
    const x = Math.round(p[0])
    const y = Math.round(p[1])
    if (x === px && y === py) continue
    out.push([x, y])
    px = x
    py = y
  }
  return out
}

/** Minus twice the shoelace area in tile coordinates (y down): < 0 for a clockwise ring on screen (geojson-vt's sign). */
export function ringArea(ring: readonly ClipPoint[]): number {
  let a = 0
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const p = ring[i] as ClipPoint
    const q = ring[j] as ClipPoint
    a += (p[0] - q[0]) * (p[1] + q[1])
  }
  return a
}

/**
 * Cuts the picked features of a TileData into one tile: vertices below the zoom's simplification
 * tolerance skipped, projected to tile units, clipped to the tile plus buffer (lineclip; features
 * wholly inside skip clipping), rounded, and polygon rings wound as MVT 2 wants (outer clockwise
 * on screen = positive shoelace area, holes counter-clockwise). Output is vt-pbf's geojson-vt tile feature shape.
 */
export function sliceTile(
  t: TileData,
  picked: readonly number[],
  z: number,
  x: number,
  y: number,
  opts: SliceOptions,
): TileFeatureLike[] {
  const scale = 2 ** z * opts.extent
  const ox = x * opts.extent
  const oy = y * opts.extent
  const lo = -opts.buffer
  const hi = opts.extent + opts.buffer
  const box: ClipBox = [lo, lo, hi, hi]
  const sqTol = (opts.tolerance / scale) ** 2
  const { coords, importance, featRing, ringStart, ringOuter } = t
  const out: TileFeatureLike[] = []
  for (const k of picked) {
    const r0 = featRing[k] as number
    const r1 = featRing[k + 1] as number
    if (t.kind === 'point') {
      const pts: ClipPoint[] = []
      for (let v = ringStart[r0] as number; v < (ringStart[r1] as number); v++) {
        const px = Math.round((coords[2 * v] as number) * scale - ox)
        const py = Math.round((coords[2 * v + 1] as number) * scale - oy)
        if (px >= lo && px <= hi && py >= lo && py <= hi) pts.push([px, py])
      }
      if (pts.length) out.push({ type: 1, id: t.ids[k], geometry: pts, tags: tagsOf(t, k) })
      continue
    }
    const polygon = t.kind === 'polygon'
    const rings: ClipPoint[][] = []
    let skipPart = false
    for (let r = r0; r < r1; r++) {
      const outer = ringOuter[r] === 1
      if (outer) skipPart = false
      else if (skipPart) continue
      const pts: ClipPoint[] = []
      let minx = Infinity
      let miny = Infinity
      let maxx = -Infinity
      let maxy = -Infinity
      const v1 = ringStart[r + 1] as number
      for (let v = ringStart[r] as number; v < v1; v++) {
        if ((importance[v] as number) <= sqTol) continue
        const px = (coords[2 * v] as number) * scale - ox
        const py = (coords[2 * v + 1] as number) * scale - oy
        pts.push([px, py])
        if (px < minx) minx = px
        if (px > maxx) maxx = px
        if (py < miny) miny = py
        if (py > maxy) maxy = py
      }
      const outside = maxx < lo || minx > hi || maxy < lo || miny > hi
      const inside = minx >= lo && maxx <= hi && miny >= lo && maxy <= hi
      if (!polygon) {
        if (outside || pts.length < 2) continue
        for (const part of inside ? [pts] : clipPolyline(pts, box)) {
          const line = snap(part)
          if (line.length >= 2) rings.push(line)
        }
        continue
      }
      if (outside || pts.length < 4) {
        if (outer) skipPart = true
        continue
      }
      const ring = snap(inside ? pts : clipPolygon(pts, box))
      const first = ring[0]
      const last = ring[ring.length - 1]
      if (first && last && (first[0] !== last[0] || first[1] !== last[1])) ring.push([first[0], first[1]])
      const area = ring.length >= 4 ? ringArea(ring) : 0
      if (area === 0) {
        if (outer) skipPart = true
        continue
      }
      if (area > 0 === outer) ring.reverse()
      rings.push(ring)
    }
    if (rings.length) out.push({ type: polygon ? 3 : 2, id: t.ids[k], geometry: rings, tags: tagsOf(t, k) })
  }
  return out
}
