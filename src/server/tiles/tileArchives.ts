import { createHash } from 'node:crypto'
import type { Store } from '../store/Store'
import type { TileLimits } from './buildTile'
import { archiveStamp } from './renderArchive'
import { readTileArchive, tileArchivePath, tileKey, type ArchiveStamp } from './tileArchiveFile'
import { archiveMaxZoom } from './tilePolicy'

/** A tile as the routes send it: gzip MVT (null = empty tile), the raw bytes when already known. */
export interface ServedTile {
  gz: Buffer | null
  /** Uncompressed MVT; null for an empty tile, or for an archived tile until a client asks for it. */
  raw: Buffer | null
  etag: string
  features: number
  mode: string
}

interface LoadedArchive {
  stamp: ArchiveStamp
  maxZoom: number
  tiles: Map<number, ServedTile>
}

/**
 * The pre-rendered tiles of the small sources (see tilePolicy's ARCHIVE_POLICY), read from
 * tile-index/<source>.tiles and held in memory. `get` answers only for the stored data and the
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
    if (!a || a.stamp.version !== version || z > a.maxZoom || a.stamp.content !== contentKey) return undefined
    return a.tiles.get(tileKey(z, x, y))
  }

  /**
   * Reads the archives of a dataset's sources that match the data stored now. Answers the sources
   * whose archive is missing or stale (for the caller to render in the background); none for a
   * store without a file (PostgreSQL): its servers cut every tile on request.
   */
  async load(datasetId: string): Promise<string[]> {
    const missing: string[] = []
    const location = this.store.location
    if (!location) return missing
    for (const source of this.store.catalog.sources) {
      if (source.dataset !== datasetId) continue
      if (archiveMaxZoom(source, (await this.store.info(datasetId)).count) === null) continue
      const stamp = await archiveStamp(this.store, source, this.limits)
      const have = this.bySource.get(source.id)
      if (have && have.stamp.version === stamp.version && have.stamp.content === stamp.content) continue
      const read = await readTileArchive(tileArchivePath(location, source.id), stamp)
      if (!read) {
        missing.push(source.id)
        continue
      }
      const tag = createHash('sha1').update(JSON.stringify(read.stamp)).digest('base64url').slice(0, 10)
      const tiles = new Map<number, ServedTile>()
      for (const t of read.tiles) {
        const empty = t.features === 0 || t.gz.length === 0
        tiles.set(tileKey(t.z, t.x, t.y), {
          gz: empty ? null : t.gz,
          raw: null,
          etag: `"a${tag}-${t.z}-${t.x}-${t.y}"`,
          features: empty ? 0 : t.features,
          mode: t.mode,
        })
      }
      this.bySource.set(source.id, { stamp: read.stamp, maxZoom: read.maxZoom, tiles })
    }
    return missing
  }

  /** Tiles held (for tests and benchmarks). */
  size(sourceId: string): number {
    return this.bySource.get(sourceId)?.tiles.size ?? 0
  }
}
