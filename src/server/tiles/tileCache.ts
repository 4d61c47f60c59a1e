import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { LRUCache } from 'lru-cache'
import type { VectorSourceDef } from '../store/catalog'
import type { DatasetInfo, Store } from '../store/Store'
import { buildTile, tilePlan, type BuiltTile, type TileLimits } from './buildTile'
import { encodeSlice, pickTile, pickVertices } from './encodeSlice'
import type { PooledTile } from './tilePool'
import { archiveContentKey } from './renderArchive'
import { cutTileTag, type ServedTile } from './tileArchives'
import { tileIndexesOf, type TileIndexes } from './tileIndexes'

const gzip = promisify(zlib.gzip)

export type { ServedTile }

export interface TileCacheOptions extends TileLimits {
  /** Upper bound of cached bytes (raw + gzip) — keeps RSS bounded. */
  maxCacheBytes: number
}

/** How long a tile waits for its dataset's tile data while that is read from its file. */
const LOAD_WAIT_MS = 2000

/** Tiles of more vertices than this are built in the worker pool (measured: a hop costs ~0.1 ms idle, ms under load). */
const POOL_MIN_VERTICES = 2_000

/** Below this size gzip runs synchronously (cheaper than a thread-pool round trip). */
const SYNC_GZIP_BYTES = 32 * 1024

/**
 * Builds tiles on demand and keeps the encoded bytes in a bounded LRU keyed by dataset
 * version, so a re-import invalidates them. Concurrent requests for one tile share one build.
 * A tile whose gzip exceeds `maxGzipBytes` is rebuilt with half the feature budget.
 */
export class TileCache {
  private readonly lru: LRUCache<string, ServedTile>
  private readonly pending = new Map<string, Promise<ServedTile>>()
  /** The archive content key this cache's limits give, per source@version. */
  private readonly contentKeys = new Map<string, string>()
  /** The datasets' in-memory tile data (pre-projected geometry, attribute columns, box index). */
  readonly indexes: TileIndexes
  /** Tiles cut since start (one per tile and version however many ask at once; coalescing test). */
  cuts = 0

  constructor(
    private readonly store: Store,
    private readonly options: TileCacheOptions,
  ) {
    this.lru = new LRUCache<string, ServedTile>({
      maxSize: options.maxCacheBytes,
      sizeCalculation: (t) => 200 + (t.gz?.length ?? 0) + (t.raw?.length ?? 0),
    })
    this.indexes = tileIndexesOf(store)
    // PostgreSQL mode: the shared archives' tiles are kept in this cache too (one budget).
    this.indexes.shared?.shareCache(this.lru)
  }

  async get(source: VectorSourceDef, z: number, x: number, y: number): Promise<ServedTile> {
    // Every tile request asks: a store answering at once (SQLite, cached) is not awaited.
    const asked = this.store.info(source.dataset)
    const info = asked instanceof Promise ? await asked : asked
    const version = info.version
    // PostgreSQL mode, a large dataset: its current shared archive (the previous version's until
    // the leader completes the new one), read from the database; deeper zooms are cut below.
    const shared = this.indexes.shared
    if (shared && shared.handles(source.dataset, info.count)) {
      const tile = await shared.get(source, z, x, y)
      if (tile) return tile
      // The new version's set still renders: deeper zooms from the serving set's last zoom too,
      // so the source shows one version at every zoom until the switch.
      const over = await shared.overzoom(source, z, x, y, version)
      if (over) return over
    }
    const archived = this.indexes.archives.get(source.id, version, this.contentKey(source, info), z, x, y)
    if (archived) return archived
    const key = `${source.id}@${version}/${z}/${x}/${y}`
    const hit = this.lru.get(key)
    if (hit) return hit
    const inFlight = this.pending.get(key)
    if (inFlight) return inFlight
    this.cuts += 1
    this.indexes.cuts += 1
    const job = this.build(source, info.count, z, x, y, key).finally(() => this.pending.delete(key))
    this.pending.set(key, job)
    return job
  }

  private contentKey(source: VectorSourceDef, info: DatasetInfo): string {
    const at = `${source.id}@${info.version}`
    let k = this.contentKeys.get(at)
    if (k === undefined) {
      k = archiveContentKey(this.store, source, this.options, info.count)
      this.contentKeys.set(at, k)
    }
    return k
  }

  private async build(
    source: VectorSourceDef,
    count: number,
    z: number,
    x: number,
    y: number,
    key: string,
  ): Promise<ServedTile> {
    let scale = 1
    for (;;) {
      const ready =
        (await this.indexes.get(source.dataset)) ?? (await this.indexes.wait(source.dataset, LOAD_WAIT_MS))
      const plan = tilePlan(this.store, source, count, z, this.options, scale)
      let tile: BuiltTile
      let pooled: PooledTile | null = null
      if (ready && !plan.aggregate) {
        const pool = this.indexes.pool
        // Dense data: the worker picks too (the event loop allocates nothing for the tile).
        if (pool && ready.data.largest.length > 0)
          pooled = await pool.run(source.dataset, ready.data.version, z, x, y, plan)
        if (pooled) tile = pooled
        else {
          // Small tiles are cut here; a thread hop would cost more than the work.
          const pick = pickTile(ready.index, z, x, y, plan)
          if (
            pool &&
            ready.data.largest.length === 0 &&
            pickVertices(ready.data, pick.picked) > POOL_MIN_VERTICES
          )
            pooled = await pool.run(source.dataset, ready.data.version, z, x, y, plan, pick)
          tile = pooled ?? encodeSlice(ready.data, ready.index, source.dataset, z, x, y, plan, pick)
        }
      } else {
        // Aggregated cells, or features read from the store: a worker's own read-only connection
        // to the store file; without one (PostgreSQL) this process asks the store.
        const pool = this.indexes.pool
        if (pool && this.store.location) pooled = await pool.runStore(source.id, z, x, y, this.options, scale)
        else if (pool && plan.aggregate)
          // Without a file the cells come from this process's store (held in memory per version,
          // PgCellCache); a worker encodes and gzips them, as SQLite's workers do.
          pooled = await pool.runCells(source.dataset, x, y, await this.store.cells(source.dataset, z, x, y))
        tile = pooled ?? (await buildTile(this.store, source, z, x, y, this.options, scale, ready))
      }
      if (tile.features === 0) {
        const empty: ServedTile = {
          gz: null,
          raw: null,
          etag: `"${hash(key)}"`,
          features: 0,
          mode: tile.mode,
        }
        this.lru.set(key, empty)
        return empty
      }
      const raw = Buffer.from(tile.pbf.buffer, tile.pbf.byteOffset, tile.pbf.byteLength)
      const gz = pooled?.gz
        ? Buffer.from(pooled.gz.buffer, pooled.gz.byteOffset, pooled.gz.byteLength)
        : raw.length < SYNC_GZIP_BYTES
          ? zlib.gzipSync(raw, { level: 1 })
          : await gzip(raw, { level: 1 })
      if (gz.length > this.options.maxGzipBytes && scale > 1 / 1024) {
        scale /= 2
        continue
      }
      const served: ServedTile = {
        gz,
        raw,
        etag: `"${hash(key)}-${gz.length}"`,
        features: tile.features,
        mode: tile.mode,
      }
      this.lru.set(key, served)
      return served
    }
  }

  clear(): void {
    this.lru.clear()
  }
}

const hash = cutTileTag
