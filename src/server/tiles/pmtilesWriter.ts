import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { zxyToTileId } from 'pmtiles'

/** One tile to write: its bytes as stored (compressed as `tileCompression` says). */
export interface PmtilesTile {
  readonly z: number
  readonly x: number
  readonly y: number
  readonly data: Buffer
}

export interface PmtilesOptions {
  /** 1 = MVT, 2 = PNG (PMTiles TileType). */
  readonly tileType: 1 | 2
  /** How the tiles' bytes are compressed: 1 none, 2 gzip (PMTiles Compression). */
  readonly tileCompression: 1 | 2
  /** The JSON metadata (vector_layers, name, attribution …). */
  readonly metadata?: Record<string, unknown>
  /** [west, south, east, north] in degrees (default: the Web Mercator world). */
  readonly bounds?: readonly [number, number, number, number]
  /** [lon, lat, zoom] (default: the bounds' centre at the first zoom). */
  readonly center?: readonly [number, number, number]
}

/** What was written. */
export interface PmtilesSummary {
  /** Tiles addressed (one per z/x/y written; empty tiles are left out: absent = empty). */
  addressed: number
  /** Directory entries (runs of consecutive tiles with the same bytes are one entry). */
  entries: number
  /** Distinct tile contents stored (deduplicated by their bytes). */
  contents: number
  /** Leaf directories (0 when the root directory holds every entry). */
  leaves: number
  bytes: number
}

interface Entry {
  id: number
  offset: number
  length: number
  runLength: number
}

const HEADER_BYTES = 127
/** The header and root directory fit the first 16 KiB (one read opens the archive). */
const ROOT_MAX_BYTES = 16_384 - HEADER_BYTES

function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80)
    n = Math.floor(n / 0x80)
  }
  out.push(n)
}

/** A directory as the spec lays it out (ids delta-coded, then run lengths, lengths, offsets), gzip. */
function directory(entries: readonly Entry[]): Buffer {
  const out: number[] = []
  varint(entries.length, out)
  let last = 0
  for (const e of entries) {
    varint(e.id - last, out)
    last = e.id
  }
  for (const e of entries) varint(e.runLength, out)
  for (const e of entries) varint(e.length, out)
  entries.forEach((e, i) => {
    const prev = entries[i - 1]
    varint(prev && e.offset === prev.offset + prev.length ? 0 : e.offset + 1, out)
  })
  return gzipSync(Buffer.from(out))
}

/**
 * The root directory and leaf directories: all entries in the root when it fits the first
 * 16 KiB, otherwise leaves of `leafSize` entries (grown until the root of leaf pointers fits),
 * as go-pmtiles does.
 */
function directories(entries: readonly Entry[]): { root: Buffer; leaves: Buffer; count: number } {
  const whole = directory(entries)
  if (whole.length <= ROOT_MAX_BYTES) return { root: whole, leaves: Buffer.alloc(0), count: 0 }
  for (
    let leafSize = Math.max(4096, Math.ceil(entries.length / 3500));
    ;
    leafSize = Math.ceil(leafSize * 1.2)
  ) {
    const pointers: Entry[] = []
    const parts: Buffer[] = []
    let offset = 0
    for (let i = 0; i < entries.length; i += leafSize) {
      const leaf = directory(entries.slice(i, i + leafSize))
      pointers.push({ id: (entries[i] as Entry).id, offset, length: leaf.length, runLength: 0 })
      parts.push(leaf)
      offset += leaf.length
    }
    const root = directory(pointers)
    if (root.length <= ROOT_MAX_BYTES) return { root, leaves: Buffer.concat(parts), count: parts.length }
  }
}

/**
 * A PMTiles v3 archive (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md) in parts,
 * in file order: 127-byte header, root directory, metadata, leaf directories, tile data. Tiles
 * are ordered by tile id ("clustered"), identical bytes stored once (deduplicated), runs of
 * consecutive ids with the same bytes one entry; directories and metadata gzip. Empty tiles
 * (no bytes) are left out. The pmtiles package reads it; it does not write archives.
 */
export function pmtilesParts(
  tiles: Iterable<PmtilesTile>,
  opts: PmtilesOptions,
): { parts: Buffer[]; summary: PmtilesSummary } {
  const sorted: { id: number; z: number; data: Buffer }[] = []
  for (const t of tiles)
    if (t.data.length > 0) sorted.push({ id: zxyToTileId(t.z, t.x, t.y), z: t.z, data: t.data })
  sorted.sort((a, b) => a.id - b.id)
  const stored = new Map<string, { offset: number; length: number }>()
  const data: Buffer[] = []
  const entries: Entry[] = []
  let dataBytes = 0
  let minZoom = Infinity
  let maxZoom = -Infinity
  for (const t of sorted) {
    minZoom = Math.min(minZoom, t.z)
    maxZoom = Math.max(maxZoom, t.z)
    const hash = createHash('sha1').update(t.data).digest('base64')
    let at = stored.get(hash)
    if (!at) {
      at = { offset: dataBytes, length: t.data.length }
      stored.set(hash, at)
      data.push(t.data)
      dataBytes += t.data.length
    }
    const last = entries[entries.length - 1]
    if (last && last.offset === at.offset && last.id + last.runLength === t.id) last.runLength += 1
    else entries.push({ id: t.id, offset: at.offset, length: at.length, runLength: 1 })
  }
  if (sorted.length === 0) minZoom = maxZoom = 0
  const { root, leaves, count: leafCount } = directories(entries)
  const meta = gzipSync(Buffer.from(JSON.stringify(opts.metadata ?? {})))
  const [west, south, east, north] = opts.bounds ?? [-180, -85.0511287, 180, 85.0511287]
  const center = opts.center ?? [(west + east) / 2, (south + north) / 2, minZoom]
  const header = Buffer.alloc(HEADER_BYTES)
  header.write('PMTiles', 0, 'latin1')
  header.writeUInt8(3, 7)
  const u64 = (at: number, v: number) => header.writeBigUInt64LE(BigInt(v), at)
  const rootOffset = HEADER_BYTES
  const metaOffset = rootOffset + root.length
  const leavesOffset = metaOffset + meta.length
  const dataOffset = leavesOffset + leaves.length
  u64(8, rootOffset)
  u64(16, root.length)
  u64(24, metaOffset)
  u64(32, meta.length)
  u64(40, leavesOffset)
  u64(48, leaves.length)
  u64(56, dataOffset)
  u64(64, dataBytes)
  u64(72, sorted.length)
  u64(80, entries.length)
  u64(88, stored.size)
  header.writeUInt8(1, 96) // clustered: data in tile id order
  header.writeUInt8(2, 97) // directories and metadata gzip
  header.writeUInt8(opts.tileCompression, 98)
  header.writeUInt8(opts.tileType, 99)
  header.writeUInt8(minZoom, 100)
  header.writeUInt8(maxZoom, 101)
  const e7 = (deg: number) => Math.round(deg * 1e7)
  header.writeInt32LE(e7(west), 102)
  header.writeInt32LE(e7(south), 106)
  header.writeInt32LE(e7(east), 110)
  header.writeInt32LE(e7(north), 114)
  header.writeUInt8(Math.round(center[2]), 118)
  header.writeInt32LE(e7(center[0]), 119)
  header.writeInt32LE(e7(center[1]), 123)
  const parts = [header, root, meta, leaves, ...data]
  return {
    parts,
    summary: {
      addressed: sorted.length,
      entries: entries.length,
      contents: stored.size,
      leaves: leafCount,
      bytes: dataOffset + dataBytes,
    },
  }
}

/** The archive as one buffer (small archives, tests). */
export function pmtilesBuffer(tiles: Iterable<PmtilesTile>, opts: PmtilesOptions): Buffer {
  return Buffer.concat(pmtilesParts(tiles, opts).parts)
}

/** Writes the archive to `file` (temp file + rename), part by part. */
export function writePmtilesFile(
  file: string,
  tiles: Iterable<PmtilesTile>,
  opts: PmtilesOptions,
): PmtilesSummary {
  const { parts, summary } = pmtilesParts(tiles, opts)
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  const fd = fs.openSync(tmp, 'w')
  try {
    for (const part of parts) fs.writeFileSync(fd, part)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(tmp, file)
  return summary
}
