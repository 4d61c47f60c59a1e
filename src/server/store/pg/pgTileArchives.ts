import os from 'node:os'
import type { SharedArchiveSet, SharedArchiveTile, TileArchiveStorage } from '../tileArchiveStorage'
import { ADVISORY_LOCK_SPACE, type PgDatabase } from './pgDatabase'
import { DATASET_CHANNEL } from './pgWriteDataset'

interface SetRow {
  source: string
  dataset: string
  version: string
  stamp: string
  min_zoom: number
  max_zoom: number
  tiles: number
  bytes: string
  render_ms: number | null
  rendered_by: string | null
}

function setOf(r: SetRow): SharedArchiveSet {
  return {
    source: r.source,
    dataset: r.dataset,
    version: Number(r.version),
    stamp: r.stamp,
    minZoom: r.min_zoom,
    maxZoom: r.max_zoom,
    tiles: r.tiles,
    bytes: Number(r.bytes),
    renderMs: r.render_ms,
    renderedBy: r.rendered_by,
  }
}

/** Rows read per query when a whole set is read (the export). */
const READ_BATCH = 5000

/**
 * The shared tile archives in PostgreSQL (migration data/005): `tile_archive_sets` (one row per
 * source and version, served once complete) and `tile_archive_tiles` (gzip bytes keyed by source,
 * version, z, x, y). A tile is read by one prepared statement on the primary key.
 */
export class PgTileArchives implements TileArchiveStorage {
  constructor(private readonly db: PgDatabase) {}

  async current(source: string): Promise<SharedArchiveSet | null> {
    const r = await this.db.one<SetRow>(
      `SELECT source, dataset, version, stamp, min_zoom, max_zoom, tiles, bytes, render_ms, rendered_by
         FROM tile_archive_sets WHERE source = $1 AND complete ORDER BY version DESC LIMIT 1`,
      [source],
    )
    return r ? setOf(r) : null
  }

  async tile(
    source: string,
    version: number,
    z: number,
    x: number,
    y: number,
  ): Promise<SharedArchiveTile | null> {
    const res = await this.db.pool.query<{ features: number; mode: number; gz: Buffer }>({
      name: 'tile-archive-tile',
      text: 'SELECT features, mode, gz FROM tile_archive_tiles WHERE source = $1 AND version = $2 AND z = $3 AND x = $4 AND y = $5',
      values: [source, version, z, x, y],
    })
    const r = res.rows[0]
    return r ? { z, x, y, gz: r.gz, features: r.features, mode: r.mode } : null
  }

  async begin(set: Omit<SharedArchiveSet, 'tiles' | 'bytes' | 'renderMs'>): Promise<void> {
    await this.db.tx(async () => {
      await this.db.run('DELETE FROM tile_archive_tiles WHERE source = $1 AND version = $2', [
        set.source,
        set.version,
      ])
      await this.db.run('DELETE FROM tile_archive_sets WHERE source = $1 AND version = $2', [
        set.source,
        set.version,
      ])
      await this.db.run(
        `INSERT INTO tile_archive_sets (source, dataset, version, stamp, min_zoom, max_zoom, rendered_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          set.source,
          set.dataset,
          set.version,
          set.stamp,
          set.minZoom,
          set.maxZoom,
          set.renderedBy ?? os.hostname(),
        ],
      )
    })
  }

  async write(source: string, version: number, tiles: readonly SharedArchiveTile[]): Promise<void> {
    if (tiles.length === 0) return
    await this.db.run(
      `INSERT INTO tile_archive_tiles (source, version, z, x, y, features, mode, gz)
       SELECT $1, $2, * FROM unnest($3::smallint[], $4::int[], $5::int[], $6::int[], $7::smallint[], $8::bytea[])`,
      [
        source,
        version,
        tiles.map((t) => t.z),
        tiles.map((t) => t.x),
        tiles.map((t) => t.y),
        tiles.map((t) => t.features),
        tiles.map((t) => t.mode),
        tiles.map((t) => t.gz),
      ],
    )
  }

  async complete(source: string, version: number, renderMs: number): Promise<void> {
    await this.db.tx(async () => {
      const set = await this.db.one<{ dataset: string }>(
        `UPDATE tile_archive_sets s SET complete = true, completed_at = now(), render_ms = $3,
                tiles = t.n, bytes = t.b
           FROM (SELECT count(*)::int AS n, coalesce(sum(length(gz)), 0)::bigint AS b
                   FROM tile_archive_tiles WHERE source = $1 AND version = $2) t
          WHERE s.source = $1 AND s.version = $2 RETURNING s.dataset`,
        [source, version, Math.round(renderMs)],
      )
      if (!set) throw new Error(`no tile archive ${source}@${version} was begun`)
      // Keep this set and the previous complete one (servers still on it until they hear the switch).
      const keep = await this.db.one<{ v: string | null }>(
        `SELECT max(version) AS v FROM tile_archive_sets WHERE source = $1 AND complete AND version < $2`,
        [source, version],
      )
      const floor = keep?.v != null ? Number(keep.v) : version
      await this.db.run('DELETE FROM tile_archive_tiles WHERE source = $1 AND version < $2', [source, floor])
      await this.db.run('DELETE FROM tile_archive_sets WHERE source = $1 AND version < $2', [source, floor])
      // Unfinished older sets between the kept ones (abandoned renders).
      await this.db.run(
        `DELETE FROM tile_archive_tiles WHERE source = $1 AND version < $2 AND version IN
           (SELECT version FROM tile_archive_sets WHERE source = $1 AND NOT complete)`,
        [source, version],
      )
      await this.db.run('DELETE FROM tile_archive_sets WHERE source = $1 AND version < $2 AND NOT complete', [
        source,
        version,
      ])
      // Delivered at commit: every server switches to the new set.
      await this.db.run('SELECT pg_notify($1, $2)', [
        DATASET_CHANNEL,
        JSON.stringify({ id: set.dataset, version, archive: source }),
      ])
    })
  }

  async lockRender(source: string, version: number): Promise<(() => Promise<void>) | null> {
    const client = await this.db.pool.connect()
    const key = [ADVISORY_LOCK_SPACE, `tile-archive:${source}@${version}`]
    try {
      const res = await client.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1, hashtext($2)) AS locked',
        key,
      )
      if (!res.rows[0]?.locked) {
        client.release()
        return null
      }
    } catch (err) {
      client.release(err instanceof Error ? err : true)
      throw err
    }
    let released = false
    return async () => {
      if (released) return
      released = true
      try {
        await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', key)
        client.release()
      } catch (err) {
        // A broken connection: dropping it ends the session, and the lock with it.
        client.release(err instanceof Error ? err : true)
      }
    }
  }

  async *tiles(source: string, version: number): AsyncIterable<SharedArchiveTile> {
    let after: [number, number, number] = [-1, 0, 0]
    for (;;) {
      const rows = await this.db.query<{
        z: number
        x: number
        y: number
        features: number
        mode: number
        gz: Buffer
      }>(
        `SELECT z, x, y, features, mode, gz FROM tile_archive_tiles
          WHERE source = $1 AND version = $2 AND (z, x, y) > ($3, $4, $5)
          ORDER BY z, x, y LIMIT ${READ_BATCH}`,
        [source, version, ...after],
      )
      for (const r of rows) yield r
      const last = rows[rows.length - 1]
      if (!last || rows.length < READ_BATCH) return
      after = [last.z, last.x, last.y]
    }
  }
}
