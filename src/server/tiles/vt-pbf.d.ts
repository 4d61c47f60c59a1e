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
  /** A vector-tile-js style feature: what `fromVectorTileJs` reads. */
  export interface VectorTileFeatureLike {
    id?: number
    type: 1 | 2 | 3
    properties: Record<string, string | number | boolean | null>
    loadGeometry(): { x: number; y: number }[][]
  }
  export interface VectorTileLayerLike {
    name: string
    version: number
    extent: number
    length: number
    feature(i: number): VectorTileFeatureLike | undefined
  }
  export function fromVectorTileJs(tile: { layers: Record<string, VectorTileLayerLike> }): Uint8Array
  export function fromGeojsonVt(
    layers: Record<string, TileLike>,
    options?: { version?: number; extent?: number },
  ): Uint8Array
}
