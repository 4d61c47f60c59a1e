// Types for the part of vt-pbf (3.x, untyped) the tile builder uses.
declare module 'vt-pbf' {
  export interface TileFeatureLike {
    type: 1 | 2 | 3
    geometry: number[][] | number[][][]
    tags?: Record<string, string | number | boolean | null>
    id?: number | string
  }
  export interface TileLike {
    features: TileFeatureLike[]
  }
  export function fromGeojsonVt(
    layers: Record<string, TileLike>,
    options?: { version?: number; extent?: number },
  ): Uint8Array
}
