import { createHash } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { GridStorage } from '../store/AppStore'
import type { StoredGrid } from '../store/gridStore'
import type { GridDef, RasterSourceDef } from './gridCatalog'
import { encodePng, renderTilePixels, tileOutsideGrid } from './renderTile'

/** A rendered tile: PNG bytes, or null for "nothing to draw" (204), and its ETag. */
export interface GridTile {
  png: Buffer | null
  etag: string
}

export interface GridTilesOptions {
  /** Bytes of PNG tiles kept in memory (default 64 MB). */
  maxTileBytes?: number
  /** Bytes of decoded grids kept in memory (default 256 MB). */
  maxGridBytes?: number
}

/** Renders and caches PNG tiles of stored grids. Knows nothing about HTTP. */
export class GridTiles {
  private readonly tiles: LRUCache<string, GridTile>
  private readonly grids: LRUCache<string, StoredGrid>
  private readonly styleKeys = new Map<string, string>()

  constructor(
    private readonly store: GridStorage,
    opts: GridTilesOptions = {},
  ) {
    this.tiles = new LRUCache({
      maxSize: opts.maxTileBytes ?? 64 << 20,
      sizeCalculation: (t) => (t.png?.length ?? 0) + 64,
    })
    this.grids = new LRUCache({
      maxSize: opts.maxGridBytes ?? 256 << 20,
      sizeCalculation: (g) => g.data.byteLength + 64,
    })
  }

  /** The stored hour of a grid (static grids have only hour 0), or undefined when not stored. */
  async grid(def: GridDef, hour: number): Promise<StoredGrid | undefined> {
    const version = await this.store.version(def.id)
    if (version === undefined) return undefined
    const h = def.hours > 1 ? hour : 0
    const key = `${def.id}:${h}`
    const cached = this.grids.get(key)
    if (cached && cached.version === version) return cached
    const loaded = await this.store.grid(def.id, h)
    if (loaded) this.grids.set(key, loaded)
    return loaded
  }

  /** The tile, or undefined when the grid (or that hour) is not stored. */
  async tile(
    source: RasterSourceDef,
    hour: number,
    z: number,
    x: number,
    y: number,
  ): Promise<GridTile | undefined> {
    const grid = await this.grid(source.grid, hour)
    if (!grid) return undefined
    const etag = `"${grid.version}-${this.styleKey(source.grid)}-${grid.hour}"`
    const key = `${source.id}|${etag}|${z}/${x}/${y}`
    const hit = this.tiles.get(key)
    if (hit) return hit
    const size = source.tileSize
    const pixels = tileOutsideGrid(grid, z, x, y, size)
      ? null
      : renderTilePixels(grid, source.grid.ramp, source.grid.interpolation, z, x, y, size)
    const tile = { png: pixels ? encodePng(pixels, size) : null, etag }
    this.tiles.set(key, tile)
    return tile
  }

  /** A short hash of what colours a grid (legend + interpolation), so a config change changes ETags. */
  private styleKey(def: GridDef): string {
    let k = this.styleKeys.get(def.id)
    if (!k) {
      k = createHash('sha1')
        .update(JSON.stringify([def.legend, def.interpolation]))
        .digest('hex')
        .slice(0, 8)
      this.styleKeys.set(def.id, k)
    }
    return k
  }
}
