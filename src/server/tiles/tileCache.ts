import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { LRUCache } from 'lru-cache'
import type { VectorSourceDef } from '../store/catalog'
import type { Awaitable } from '../store/Awaitable'
import type { DatasetInfo, Store } from '../store/Store'
import { buildTile, tilePlan, type BuiltTile, type TileLimits } from './buildTile'
import { encodeSlice, pickTile, pickVertices } from './encodeSlice'
import type { PooledTile } from './tilePool'
import { archiveContentKey } from './renderArchive'
import { cutTileTag, type ServedTile } from './tileArchives'
import { tileIndexesOf, type TileIndexes } from './tileIndexes'

const gzip = promisify(zlib.gzip)

export type { ServedTile }

/** The store a tile cache reads: tiles' rows, and forgetting a dataset found replaced. */
export type TileStore = Store & { datasetReplaced(id: string): Awaitable<void> }

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
  private readonly pending = new Map<string, Promise<ServedTile | Moved>>()
  /** The archive content key this cache's limits give, per source@version. */
  private readonly contentKeys = new Map<string, string>()
  /** The datasets' in-memory tile data (pre-projected geometry, attribute columns, box index). */
  readonly indexes: TileIndexes
  /** Tiles cut since start (one per tile and version however many ask at once; coalescing test). */
  cuts = 0

  constructor(
    private readonly store: TileStore,
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
    for (let attempt = 1; ; attempt++) {
      const got = await this.attempt(source, z, x, y, attempt === MAX_ATTEMPTS)
      if (!('moved' in got)) return got
      // The rows were of a newer version than this server's info: an import committed whose
      // notice has not reached this server yet. Forget the info (unless a request racing this one
      // already did) and answer as the new version.
      if ((await this.store.info(source.dataset)).version < got.moved)
        await this.store.datasetReplaced(source.dataset)
    }
  }

  private async attempt(
    source: VectorSourceDef,
    z: number,
    x: number,
    y: number,
    last: boolean,
  ): Promise<ServedTile | Moved> {
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
    const key = tileKey(source, version, z, x, y)
    const hit = this.lru.get(key)
    if (hit) return hit
    const inFlight = this.pending.get(key)
    if (inFlight) return inFlight
    this.cuts += 1
    this.indexes.cuts += 1
    const job = this.build(source, info, z, x, y, last).finally(() => this.pending.delete(key))
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

  /**
   * Cuts a tile of the version `info` names. What it is cut from (tile data, cells, rows) carries
   * its own version: when that is another — an import committed since this server read `info` —
   * the tile is not kept under `info`'s key: `moved` (the caller asks again), or on the `last`
   * attempt it is keyed and tagged by the version it was cut from.
   */
  private async build(
    source: VectorSourceDef,
    info: DatasetInfo,
    z: number,
    x: number,
    y: number,
    last: boolean,
  ): Promise<ServedTile | Moved> {
    let scale = 1
    for (;;) {
      let ready =
        (await this.indexes.get(source.dataset)) ?? (await this.indexes.wait(source.dataset, LOAD_WAIT_MS))
      // Tile data of a newer version (built from rows read after `info`): the dataset moved on.
      if (ready && ready.data.version > info.version && !last) return { moved: ready.data.version }
      // Of an older one (an import heard, the new data still building): the store's rows serve.
      if (ready && ready.data.version < info.version) ready = null
      const plan = tilePlan(this.store, source, info.count, z, this.options, scale)
      let tile: BuiltTile
      let cutFrom: number
      let pooled: PooledTile | null = null
      if (ready && !plan.aggregate) {
        cutFrom = ready.data.version
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
        let read: number | undefined
        if (pool && this.store.location) {
          pooled = await pool.runStore(source.id, z, x, y, this.options, scale)
          read = pooled?.version
        } else if (pool && plan.aggregate) {
          // Without a file the cells come from this process's store (held in memory per version,
          // PgCellCache); a worker encodes and gzips them, as SQLite's workers do.
          const { version, cells } = await this.store.cells(source.dataset, z, x, y)
          pooled = await pool.runCells(source.dataset, x, y, cells)
          read = version
        }
        if (pooled && read !== undefined) {
          tile = pooled
          cutFrom = read
        } else {
          pooled = null
          const built = await buildTile(this.store, source, z, x, y, this.options, scale, ready)
          tile = built
          cutFrom = built.version
        }
      }
      if (cutFrom !== info.version && !last) return { moved: cutFrom }
      const key = tileKey(source, cutFrom, z, x, y)
      if (tile.features === 0) {
        const empty: ServedTile = {
          gz: null,
          raw: null,
          etag: `"${hash(key)}"`,
          features: 0,
          mode: tile.mode,
        }
        if (cutFrom === info.version) this.lru.set(key, empty)
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
      // Kept only under the version this server knows (the last attempt's newer rows are served once).
      if (cutFrom === info.version) this.lru.set(key, served)
      return served
    }
  }

  clear(): void {
    this.lru.clear()
  }
}

const hash = cutTileTag

/** Attempts of a tile whose rows turn out newer than the info (each after forgetting the info). */
const MAX_ATTEMPTS = 3

/** A cut found the dataset at another version than the info it began with. */
interface Moved {
  moved: number
}

function tileKey(source: VectorSourceDef, version: number, z: number, x: number, y: number): string {
  return `${source.id}@${version}/${z}/${x}/${y}`
}
