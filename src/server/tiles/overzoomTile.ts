import zlib from 'node:zlib'
import { VectorTile } from '@mapbox/vector-tile'
import { clipPolygon, clipPolyline, type ClipBox, type ClipPoint } from 'lineclip'
import Pbf from 'pbf'
import { fromGeojsonVt, type TileFeatureLike } from 'vt-pbf'
import { BUFFER, EXTENT } from './encodeSlice'

/**
 * Tile z/x/y cut from its ancestor at zoom `from` (an MVT's raw bytes, layer `layer`): every
 * feature's geometry scaled by 2^(z - from) about the child's corner and clipped to the child's
 * box with the usual buffer — what a map client does past a source's maxzoom ("overzoom"). Null
 * when nothing of the ancestor falls in the child.
 *
 * PostgreSQL mode uses it while a new version's shared set renders: z15 and deeper come from the
 * set still serving (its z14 tiles keep every feature), so every zoom of a source shows one
 * version until the switch (docs/adr/0003).
 */
export function overzoomTile(
  raw: Uint8Array,
  layer: string,
  from: number,
  z: number,
  x: number,
  y: number,
): { pbf: Uint8Array; features: number } | null {
  const source = new VectorTile(new Pbf(raw)).layers[layer]
  if (!source) return null
  const d = z - from
  const k = 2 ** d
  const size = EXTENT / k
  const ox = (x % k) * size
  const oy = (y % k) * size
  const box: ClipBox = [-BUFFER, -BUFFER, EXTENT + BUFFER, EXTENT + BUFFER]
  const at = (p: { x: number; y: number }): ClipPoint => [
    Math.round((p.x - ox) * k),
    Math.round((p.y - oy) * k),
  ]
  const features: TileFeatureLike[] = []
  for (let i = 0; i < source.length; i++) {
    const f = source.feature(i)
    if (f.type === 0) continue
    const parts = f.loadGeometry()
    const geometry: ClipPoint[][] = []
    if (f.type === 1) {
      for (const part of parts)
        for (const p of part) {
          const q = at(p)
          if (q[0] >= box[0] && q[0] <= box[2] && q[1] >= box[1] && q[1] <= box[3]) geometry.push([q])
        }
      if (geometry.length === 0) continue
      features.push({ type: 1, geometry: geometry.map((g) => g[0] as ClipPoint), tags: f.properties })
      continue
    }
    if (f.type === 2) {
      for (const part of parts) clipPolyline(part.map(at), box, geometry)
    } else {
      for (const ring of parts) {
        const clipped = clipPolygon(ring.map(at), box)
        if (clipped.length < 3) continue
        const [first, last] = [clipped[0] as ClipPoint, clipped.at(-1) as ClipPoint]
        if (first[0] !== last[0] || first[1] !== last[1]) clipped.push([first[0], first[1]])
        geometry.push(clipped)
      }
    }
    if (geometry.length === 0) continue
    features.push({
      type: f.type === 2 ? 2 : 3,
      geometry,
      tags: f.properties,
      ...(f.id !== undefined ? { id: f.id } : {}),
    })
  }
  if (features.length === 0) return null
  return {
    pbf: fromGeojsonVt({ [layer]: { features } }, { version: 2, extent: EXTENT }),
    features: features.length,
  }
}

/** The raw bytes of a gzip (or plain) MVT. */
export function unzipped(gz: Buffer): Buffer {
  return gz[0] === 0x1f && gz[1] === 0x8b ? zlib.gunzipSync(gz) : gz
}
