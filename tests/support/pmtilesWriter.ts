import { gzipSync } from 'node:zlib'
import { pmtilesBuffer } from '../../src/server/tiles/pmtilesWriter'

/** One tile of a test archive. */
export interface ArchiveTile {
  readonly z: number
  readonly x: number
  readonly y: number
  readonly data: Buffer
}

export interface ArchiveOptions {
  /** 1 = MVT, 2 = PNG (PMTiles TileType). */
  readonly tileType: 1 | 2
  /** Tiles stored gzip-compressed (PMTiles tile compression 2) or plain (1). */
  readonly gzipTiles: boolean
  readonly metadata?: Record<string, unknown>
}

/**
 * A PMTiles v3 archive of plain tile bytes, gzip-compressed first when `gzipTiles`: the server's
 * own writer (src/server/tiles/pmtilesWriter.ts, the one `npm run export -- pmtiles` uses) — the
 * pmtiles package reads archives but does not write them, and Debian's GDAL 3.6 has no PMTiles
 * driver. Tests read it back through our server.
 */
export function writePmtiles(tiles: readonly ArchiveTile[], opts: ArchiveOptions): Buffer {
  return pmtilesBuffer(
    tiles.map((t) => ({ ...t, data: opts.gzipTiles ? gzipSync(t.data) : t.data })),
    { tileType: opts.tileType, tileCompression: opts.gzipTiles ? 2 : 1, metadata: opts.metadata },
  )
}
