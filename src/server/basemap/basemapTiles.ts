import geojsonvt from 'geojson-vt'
import { fromGeojsonVt, type TileLike } from 'vt-pbf'
import type { BasemapLayers } from './basemapData'

export const BASEMAP_MAX_ZOOM = 12
const EXTENT = 4096

type Index = ReturnType<typeof geojsonvt>

/** Cuts the basemap layers into vector tiles on demand (geojson-vt indexes, vt-pbf encoding). */
export class BasemapTiles {
  private readonly indexes: [string, Index][]

  constructor(layers: BasemapLayers) {
    this.indexes = Object.entries(layers).map(([name, fc]) => [
      name,
      geojsonvt(fc, { maxZoom: BASEMAP_MAX_ZOOM, indexMaxZoom: 5, extent: EXTENT, buffer: 64, tolerance: 3 }),
    ])
  }

  /** The tile's protobuf, or null when nothing lies in it. */
  tile(z: number, x: number, y: number): Uint8Array | null {
    const layers: Record<string, TileLike> = {}
    for (const [name, index] of this.indexes) {
      const t = index.getTile(z, x, y)
      if (t && t.features.length > 0) layers[name] = { features: t.features as TileLike['features'] }
    }
    return Object.keys(layers).length > 0 ? fromGeojsonVt(layers, { version: 2, extent: EXTENT }) : null
  }
}
