import type { TileIndex } from './pickFeatures'
import { encodeLayer } from './mvtEncoder'
import { sliceTile } from './sliceTile'
import type { TileData } from './tileData'

export const EXTENT = 4096
export const BUFFER = 64

export interface BuiltTile {
  /** Uncompressed MVT bytes; empty when the tile has no features. */
  pbf: Uint8Array
  features: number
  /** Features dropped by the size policy (smallest first), or aggregated into cells. */
  mode: 'full' | 'thinned' | 'aggregated'
}

/** The feature part of a tile's content policy (see buildTile's tilePlan). */
export interface SlicePlan {
  thin: boolean
  /** Smallest size kept, Web Mercator world units. */
  minSize: number
  /** At most this many features: the largest. */
  limit: number
  /** Simplification tolerance, tile units. */
  tolerance: number
}

/** The features of a tile under its plan: TileData positions in id order, and how many matched. */
export interface TilePick {
  /** An Int32Array when it crossed to a pool worker (its buffer moved, not copied). */
  picked: readonly number[] | Int32Array
  matched: number
}

/** Which features of a dataset a tile holds (box with buffer, minSize, the `limit` largest). */
export function pickTile(
  index: TileIndex | null,
  z: number,
  x: number,
  y: number,
  plan: SlicePlan,
): TilePick {
  const n = 2 ** z
  const b = BUFFER / EXTENT
  const box = [(x - b) / n, (y - b) / n, (x + 1 + b) / n, (y + 1 + b) / n] as const
  return index ? index.pick(box, plan.minSize, plan.limit) : { picked: [], matched: 0 }
}

/** Vertices a pick holds: the work of cutting and encoding it. */
export function pickVertices(data: TileData, picked: TilePick['picked']): number {
  let n = 0
  for (const k of picked)
    n +=
      (data.ringStart[data.featRing[k + 1] as number] as number) -
      (data.ringStart[data.featRing[k] as number] as number)
  return n
}

/** Picks (unless given), cuts and encodes one tile from a dataset's in-memory tile data (MVT layer `layer`). */
export function encodeSlice(
  data: TileData,
  index: TileIndex | null,
  layer: string,
  z: number,
  x: number,
  y: number,
  plan: SlicePlan,
  pick: TilePick = pickTile(index, z, x, y, plan),
): BuiltTile {
  const { picked, matched } = pick
  const features = sliceTile(data, picked, z, x, y, {
    extent: EXTENT,
    buffer: BUFFER,
    tolerance: plan.tolerance,
  })
  if (features.length === 0) return { pbf: new Uint8Array(), features: 0, mode: 'full' }
  const pbf = encodeLayer(data, layer, features, EXTENT)
  return { pbf, features: features.length, mode: plan.thin || matched > plan.limit ? 'thinned' : 'full' }
}
