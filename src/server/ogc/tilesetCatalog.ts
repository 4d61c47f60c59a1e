import type { GridCatalog, GridDef } from '../grids/gridCatalog'
import type { Catalog, DatasetDef } from '../store/catalog'
import type { AppStore, GridStorage } from '../store/AppStore'

/** One tile source of config as a tileset: vector (MVT from a dataset) or raster (PNG from a grid). */
export interface Tileset {
  readonly id: string
  readonly kind: 'vector' | 'raster'
  readonly title: string
  /** URL path under /api/tiles/. */
  readonly path: string
  readonly minzoom: number
  readonly maxzoom: number
  readonly dataset?: DatasetDef
  readonly grid?: GridDef
}

/** Every vector and raster source of the catalogue, vector first (config order). */
export function tilesets(catalog: Catalog, grids: GridCatalog): Tileset[] {
  const vector = catalog.sources.flatMap((s): Tileset[] => {
    const dataset = catalog.datasets.find((d) => d.id === s.dataset)
    if (!dataset) return []
    return [
      {
        id: s.id,
        kind: 'vector',
        title: dataset.title ?? dataset.id,
        path: s.path,
        minzoom: s.minzoom,
        maxzoom: s.maxzoom,
        dataset,
      },
    ]
  })
  const raster = grids.rasterSources.map((s): Tileset => ({
    id: s.id,
    kind: 'raster',
    title: s.grid.title,
    path: s.path,
    minzoom: s.minzoom,
    maxzoom: s.maxzoom,
    grid: s.grid,
  }))
  return [...vector, ...raster]
}

/** Bounds of tilesets from the store: a dataset's bbox, a grid's extent (cached per grid version). */
export class TilesetBounds {
  private readonly grids: GridStorage
  private readonly gridCache = new Map<
    string,
    { version: string; bounds: [number, number, number, number] }
  >()

  constructor(private readonly store: AppStore) {
    this.grids = store.grids
  }

  async bounds(t: Tileset): Promise<[number, number, number, number] | null> {
    if (t.dataset) return (await this.store.info(t.dataset.id)).bbox
    if (!t.grid) return null
    const version = await this.grids.version(t.grid.id)
    if (version === undefined) return null
    const have = this.gridCache.get(t.grid.id)
    if (have && have.version === version) return have.bounds
    const g = await this.grids.grid(t.grid.id, 0)
    if (!g) return null
    const bounds: [number, number, number, number] = [g.west, g.south, g.east, g.north]
    this.gridCache.set(t.grid.id, { version, bounds })
    return bounds
  }
}
