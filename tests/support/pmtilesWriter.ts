import { gzipSync } from 'node:zlib'
import { zxyToTileId } from 'pmtiles'

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

function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80)
    n = Math.floor(n / 0x80)
  }
  out.push(n)
}

/**
 * Writes a PMTiles v3 archive (the published spec: 127-byte header, one gzip root directory,
 * gzip JSON metadata, the tile data) — the pmtiles package reads archives but does not write them,
 * and Debian's GDAL 3.6 has no PMTiles driver. Tests read it back through our server.
 */
export function writePmtiles(tiles: readonly ArchiveTile[], opts: ArchiveOptions): Buffer {
  const sorted = tiles.map((t) => ({ ...t, id: zxyToTileId(t.z, t.x, t.y) })).sort((a, b) => a.id - b.id)
  const stored = sorted.map((t) => (opts.gzipTiles ? gzipSync(t.data) : t.data))
  const entries: { id: number; offset: number; length: number }[] = []
  let offset = 0
  stored.forEach((b, i) => {
    entries.push({ id: sorted[i]!.id, offset, length: b.length })
    offset += b.length
  })
  const dir: number[] = []
  varint(entries.length, dir)
  let last = 0
  for (const e of entries) {
    varint(e.id - last, dir)
    last = e.id
  }
  for (const _e of entries) varint(1, dir)
  for (const e of entries) varint(e.length, dir)
  entries.forEach((e, i) => {
    const prev = entries[i - 1]
    varint(i > 0 && prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1, dir)
  })
  const root = gzipSync(Buffer.from(dir))
  const meta = gzipSync(Buffer.from(JSON.stringify(opts.metadata ?? {})))
  const data = Buffer.concat(stored)
  const header = Buffer.alloc(127)
  header.write('PMTiles', 0, 'latin1')
  header.writeUInt8(3, 7)
  const u64 = (at: number, v: number) => header.writeBigUInt64LE(BigInt(v), at)
  const rootOffset = 127
  const metaOffset = rootOffset + root.length
  const dataOffset = metaOffset + meta.length
  u64(8, rootOffset)
  u64(16, root.length)
  u64(24, metaOffset)
  u64(32, meta.length)
  u64(40, dataOffset) // no leaf directories
  u64(48, 0)
  u64(56, dataOffset)
  u64(64, data.length)
  u64(72, entries.length)
  u64(80, entries.length)
  u64(88, entries.length)
  header.writeUInt8(0, 96) // not clustered
  header.writeUInt8(2, 97) // internal compression gzip
  header.writeUInt8(opts.gzipTiles ? 2 : 1, 98)
  header.writeUInt8(opts.tileType, 99)
  const zs = sorted.map((t) => t.z)
  header.writeUInt8(Math.min(...zs), 100)
  header.writeUInt8(Math.max(...zs), 101)
  header.writeInt32LE(-180e7, 102)
  header.writeInt32LE(-85e7, 106)
  header.writeInt32LE(180e7, 110)
  header.writeInt32LE(85e7, 114)
  header.writeUInt8(Math.min(...zs), 118)
  return Buffer.concat([header, root, meta, data])
}
