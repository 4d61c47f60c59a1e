import type Flatbush from 'flatbush'
import { fromVectorTileJs } from 'vt-pbf'
import { pickFeatures } from './pickFeatures'
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

/** Picks, cuts and encodes one tile from a dataset's in-memory tile data (MVT layer `layer`). */
export function encodeSlice(
  data: TileData,
  index: Flatbush | null,
  layer: string,
  z: number,
  x: number,
  y: number,
  plan: SlicePlan,
): BuiltTile {
  const n = 2 ** z
  const b = BUFFER / EXTENT
  const box = [(x - b) / n, (y - b) / n, (x + 1 + b) / n, (y + 1 + b) / n] as const
  const { picked, matched } = pickFeatures(index, data.sizes, box, plan.minSize, plan.limit)
  const features = sliceTile(data, picked, z, x, y, {
    extent: EXTENT,
    buffer: BUFFER,
    tolerance: plan.tolerance,
  })
  if (features.length === 0) return { pbf: new Uint8Array(), features: 0, mode: 'full' }
  const pbf = fromVectorTileJs({
    layers: {
      [layer]: {
        name: layer,
        version: 2,
        extent: EXTENT,
        length: features.length,
        feature: (i) => features[i],
      },
    },
  })
  return { pbf, features: features.length, mode: plan.thin || matched > plan.limit ? 'thinned' : 'full' }
}
