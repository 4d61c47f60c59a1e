import geojsonvt from 'geojson-vt'
import type { Feature, FeatureCollection } from 'geojson'
import { fromGeojsonVt, type TileFeatureLike } from 'vt-pbf'
import type { VectorSourceDef } from '../store/catalog'
import { decodeParts, partsToGeometry } from '../store/geometryCodec'
import type { AggregateCell, Store } from '../store/Store'
import { CELL_BITS } from '../store/writeDataset'
import { encodeSlice, type SlicePlan } from './encodeSlice'
import type { ReadyTileData } from './readyTileData'
import { tileBounds } from './tileMath'
import { tilePolicy } from './tilePolicy'

import { BUFFER, EXTENT } from './encodeSlice'

export { BUFFER, EXTENT }
/** Default tile size of the client (512 px): pixel sizes in `generalize` refer to it. */
const TILE_PX = 512

export interface TileLimits {
  maxFeatures: number
  maxGzipBytes: number
}

export type { BuiltTile } from './encodeSlice'
import type { BuiltTile } from './encodeSlice'

/** A tile with the dataset version of the rows (cells, tile data) it was cut from. */
export interface VersionedTile extends BuiltTile {
  version: number
}

async function aggregateTile(
  store: Store,
  source: VectorSourceDef,
  z: number,
  x: number,
  y: number,
): Promise<VersionedTile> {
  const { version, cells } = await store.cells(source.dataset, z, x, y)
  return { ...aggregatedTile(source.dataset, x, y, cells), version }
}

/** The aggregated tile (one square per cell, `count` = its features) of tile x/y's cells. */
export function aggregatedTile(
  dataset: string,
  x: number,
  y: number,
  cells: readonly AggregateCell[],
): BuiltTile {
  const k = 2 ** CELL_BITS
  const cell = EXTENT / k
  const features: TileFeatureLike[] = cells.map((c) => {
    const x0 = (c.cx - x * k) * cell
    const y0 = (c.cy - y * k) * cell
    const ring = [
      [x0, y0],
      [x0 + cell, y0],
      [x0 + cell, y0 + cell],
      [x0, y0 + cell],
      [x0, y0],
    ]
    return { type: 3, geometry: [ring], tags: { count: c.n, aggregated: true } }
  })
  const pbf = features.length
    ? fromGeojsonVt({ [dataset]: { features } }, { version: 2, extent: EXTENT })
    : new Uint8Array()
  return { pbf, features: features.length, mode: 'aggregated' }
}

/**
 * What a tile of a source at zoom z holds under the content policy (see tilePolicy): per-cell
 * counts up to `aggregateMaxZoom`; otherwise features meeting `minSize` (thinned zooms), at most
 * `limit` of the largest. `count` is the dataset's feature count (`store.info`). `scale` < 1
 * tightens the budget (byte retries).
 */
export function tilePlan(
  store: Pick<Store, 'dataset'>,
  source: VectorSourceDef,
  count: number,
  z: number,
  limits: TileLimits,
  scale = 1,
): { aggregate: true } | ({ aggregate: false } & SlicePlan) {
  const dataset = store.dataset(source.dataset)
  if (!dataset) throw new Error(`unknown dataset ${source.dataset}`)
  const policy = tilePolicy(source, dataset, count)
  if (policy.aggregateMaxZoom !== null && z <= policy.aggregateMaxZoom) return { aggregate: true }
  const thin = policy.thinMaxZoom !== null && z <= policy.thinMaxZoom
  const budget =
    thin && policy.thinMaxZoom !== null
      ? policy.thinFeatures / 2 ** (policy.thinMaxZoom - z)
      : limits.maxFeatures
  return {
    aggregate: false,
    thin,
    minSize: thin ? policy.minSizePx / (2 ** z * TILE_PX) : 0,
    limit: Math.max(1, Math.floor(Math.min(budget, limits.maxFeatures) * scale)),
    tolerance: thin ? 3 : 1,
  }
}

/**
 * Builds one vector tile of a source. Content policy (like tippecanoe's, see tilePolicy): at zooms
 * up to `aggregateMaxZoom` features become per-cell counts; up to `thinMaxZoom` features
 * smaller than `minSizePx` pixels are dropped; at any zoom, when more than `maxFeatures`
 * match, the smallest are dropped. Geometry is clipped (buffer 64/4096) and simplified per
 * zoom and encoded by vt-pbf. With the dataset's in-memory tile data (`ready`) the features are
 * cut from pre-projected, pre-ranked typed arrays (encodeSlice — also what the tile worker pool
 * runs); without it (index still loading/building) they are read from the store and cut by geojson-vt.
 * Answers the version of what it was cut from (the tile data's, or the rows' as read with them).
 */
export async function buildTile(
  store: Store,
  source: VectorSourceDef,
  z: number,
  x: number,
  y: number,
  limits: TileLimits,
  scale = 1,
  ready: ReadyTileData | null = null,
): Promise<VersionedTile> {
  const { count } = await store.info(source.dataset)
  const plan = tilePlan(store, source, count, z, limits, scale)
  if (plan.aggregate) return aggregateTile(store, source, z, x, y)
  if (ready)
    return {
      ...encodeSlice(ready.data, ready.index, source.dataset, z, x, y, plan),
      version: ready.data.version,
    }
  const dataset = store.dataset(source.dataset) as NonNullable<ReturnType<Store['dataset']>>
  const { thin, minSize, limit, tolerance } = plan
  const box = tileBounds(z, x, y, BUFFER / EXTENT)
  const { features, matched, version } = await store.featuresInBox(source.dataset, box, minSize, limit)
  if (features.length === 0) return { pbf: new Uint8Array(), features: 0, mode: 'full', version }
  const fc: FeatureCollection = {
    type: 'FeatureCollection',
    features: features.map((f): Feature => ({
      type: 'Feature',
      id: f.id,
      properties: f.properties,
      geometry: partsToGeometry(decodeParts(f.geom), dataset.geometry),
    })),
  }
  const index = geojsonvt(fc, {
    maxZoom: 24,
    indexMaxZoom: 0,
    indexMaxPoints: 0,
    tolerance,
    extent: EXTENT,
    buffer: BUFFER,
  })
  const tile = index.getTile(z, x, y)
  if (!tile || tile.features.length === 0)
    return { pbf: new Uint8Array(), features: 0, mode: 'full', version }
  const pbf = fromGeojsonVt(
    { [source.dataset]: tile as unknown as { features: TileFeatureLike[] } },
    { version: 2, extent: EXTENT },
  )
  return {
    pbf,
    features: tile.features.length,
    mode: thin || matched > limit ? 'thinned' : 'full',
    version,
  }
}
