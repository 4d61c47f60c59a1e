import { createHash } from 'node:crypto'
import type { Store } from '../store/Store'
import type { TileLimits } from './buildTile'
import { archiveStamp, renderArchive } from './renderArchive'
import type { ReadyTileData } from './readyTileData'
import {
  readTileArchive,
  tileArchivePath,
  tileKey,
  type ArchivedTile,
  type ArchiveStamp,
} from './tileArchiveFile'
import { archivedInMemory, archiveZooms, type ArchiveZooms } from './tilePolicy'

/** A tile as the routes send it: gzip MVT (null = empty tile), the raw bytes when already known. */
export interface ServedTile {
  gz: Buffer | null
  /** Uncompressed MVT; null for an empty tile, or for an archived tile until a client asks for it. */
  raw: Buffer | null
  etag: string
  features: number
  mode: string
}

interface LoadedArchive extends ArchiveZooms {
  stamp: ArchiveStamp
  tiles: Map<number, ServedTile>
}

/**
 * The pre-rendered tiles of the sources (tilePolicy's ARCHIVE_POLICY), read from
 * tile-index/<source>.tiles or rendered in memory, and held in memory. `get` answers only for the stored data and the
 * content rules the archive was rendered under; anything else is cut on request.
 */
export class TileArchives {
  private readonly bySource = new Map<string, LoadedArchive>()

  constructor(
    private readonly store: Store,
    private readonly limits: TileLimits,
  ) {}

  /** The archived tile, or undefined (not archived: cut it on request). */
  get(
    sourceId: string,
    version: number,
    contentKey: string,
    z: number,
    x: number,
    y: number,
  ): ServedTile | undefined {
    const a = this.bySource.get(sourceId)
    if (!a || a.stamp.version !== version || z > a.maxZoom || z < a.minZoom || a.stamp.content !== contentKey)
      return undefined
    return a.tiles.get(tileKey(z, x, y))
  }

  /**
   * Reads the archives of a dataset's sources that match the data stored now. Answers the sources
   * whose archive is missing or stale (for the caller to render in the background); none for a
   * store without a file (PostgreSQL): `renderInMemory` makes those.
   */
  async load(datasetId: string): Promise<string[]> {
    const missing: string[] = []
    const location = this.store.location
    if (!location) return missing
    for (const source of this.store.catalog.sources) {
      if (source.dataset !== datasetId) continue
      if (archiveZooms(source, (await this.store.info(datasetId)).count) === null) continue
      const stamp = await archiveStamp(this.store, source, this.limits)
      const have = this.bySource.get(source.id)
      if (have && have.stamp.version === stamp.version && have.stamp.content === stamp.content) continue
      const read = await readTileArchive(tileArchivePath(location, source.id), stamp)
      if (!read) {
        missing.push(source.id)
        continue
      }
      await this.adoptInSlices(source.id, read.stamp, read, read.tiles)
    }
    return missing
  }

  /**
   * Renders the archives of a dataset's sources in this process from its tile data (a store
   * without a file: each PostgreSQL server holds its own, made after the tile data of each
   * version), pausing for other work between tiles (`renderArchive`'s `pause`). Archives already
   * held for the data and rules stored now are kept. Large datasets (over `inMemoryMaxFeatures`)
   * are not rendered here (minutes of each server's CPU and hundreds of MiB): cut on request.
   */
  async renderInMemory(datasetId: string, ready: ReadyTileData): Promise<void> {
    for (const source of this.store.catalog.sources) {
      if (source.dataset !== datasetId) continue
      const stamp = await archiveStamp(this.store, source, this.limits)
      const zooms = archiveZooms(source, stamp.count)
      if (zooms === null || !archivedInMemory(stamp.count) || stamp.version !== ready.data.version) continue
      const have = this.bySource.get(source.id)
      if (have && have.stamp.version === stamp.version && have.stamp.content === stamp.content) continue
      const tiles = await renderArchive(this.store, source, ready, this.limits, undefined, slices())
      this.adopt(source.id, stamp, zooms, compact(tiles))
    }
  }

  /**
   * Holds a source's archive rendered in memory (a store without a file: PostgreSQL renders its
   * sources in process after the tile data, see TileIndexes) or just read from its file.
   */
  adopt(sourceId: string, stamp: ArchiveStamp, zooms: ArchiveZooms, archived: readonly ArchivedTile[]): void {
    const tag = archiveTag(stamp)
    const tiles = new Map<number, ServedTile>()
    for (const t of archived) {
      tiles.set(tileKey(t.z, t.x, t.y), servedTile(tag, t))
    }
    this.bySource.set(sourceId, { stamp, minZoom: zooms.minZoom, maxZoom: zooms.maxZoom, tiles })
  }

  /** `adopt`, yielding to requests every few thousand tiles (archives are read after listen). */
  private async adoptInSlices(
    sourceId: string,
    stamp: ArchiveStamp,
    zooms: ArchiveZooms,
    archived: readonly ArchivedTile[],
  ): Promise<void> {
    const tag = archiveTag(stamp)
    const tiles = new Map<number, ServedTile>()
    for (let i = 0; i < archived.length; i++) {
      if (i > 0 && i % 4096 === 0) await new Promise((resolve) => setImmediate(resolve))
      const t = archived[i] as ArchivedTile
      tiles.set(tileKey(t.z, t.x, t.y), servedTile(tag, t))
    }
    this.bySource.set(sourceId, { stamp, minZoom: zooms.minZoom, maxZoom: zooms.maxZoom, tiles })
  }

  /** Tiles held (for tests and benchmarks). */
  size(sourceId: string): number {
    return this.bySource.get(sourceId)?.tiles.size ?? 0
  }
}

/** The tag of an archive's ETags: a hash of its stamp (JSON, as written), the same in both stores. */
export function archiveTag(stamp: ArchiveStamp | string): string {
  const json = typeof stamp === 'string' ? stamp : JSON.stringify(stamp)
  return createHash('sha1').update(json).digest('base64url').slice(0, 10)
}

/** The ETag of a tile cut on request (`key`: source@version/z/x/y; an empty tile's alone). */
export function cutTileTag(key: string): string {
  return createHash('sha1').update(key).digest('base64url').slice(0, 16)
}

/** An archived tile as served (its ETag names the archive's stamp and the tile). */
export function servedTile(tag: string, t: ArchivedTile): ServedTile {
  const empty = t.features === 0 || t.gz.length === 0
  return {
    gz: empty ? null : t.gz,
    raw: null,
    etag: `"a${tag}-${t.z}-${t.x}-${t.y}"`,
    features: empty ? 0 : t.features,
    mode: t.mode,
  }
}

/** How long in-memory rendering works before letting other work (requests) run. */
const SLICE_MS = 8

/** A pause that yields to the event loop once SLICE_MS of work went by since the last one. */
function slices(): () => Promise<void> {
  let since = performance.now()
  return async () => {
    if (performance.now() - since < SLICE_MS) return
    await new Promise((resolve) => setImmediate(resolve))
    since = performance.now()
  }
}

/**
 * The tiles with their gzip bytes copied into one buffer: each gzipSync result keeps its whole
 * output chunk (16 KiB and more) alive, which for tens of thousands of tiles is hundreds of MiB.
 */
function compact(tiles: readonly ArchivedTile[]): ArchivedTile[] {
  const all = Buffer.allocUnsafe(tiles.reduce((sum, t) => sum + t.gz.length, 0))
  let at = 0
  return tiles.map((t) => {
    t.gz.copy(all, at)
    const gz = all.subarray(at, at + t.gz.length)
    at += t.gz.length
    return { ...t, gz }
  })
}
