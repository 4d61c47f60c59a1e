import fs from 'node:fs'
import path from 'node:path'
import type { TileDataStamp } from './tileDataFile'
import type { ArchiveZooms } from './tilePolicy'

const MAGIC = 'EBARCH01'

/** One pre-rendered tile: gzip MVT (empty buffer = empty tile), its feature count and content mode. */
export interface ArchivedTile {
  z: number
  x: number
  y: number
  gz: Buffer
  features: number
  mode: 'full' | 'thinned' | 'aggregated'
}

/** What an archive was rendered from: the stored data (stamp) and the content rules (key). */
export interface ArchiveStamp extends TileDataStamp {
  /** Source, fields, policy and limits the tiles were rendered under (see archiveContentKey). */
  content: string
}

interface Header {
  source: string
  stamp: ArchiveStamp
  /** Absent in archives written before deep archives of large datasets: every zoom to maxZoom. */
  minZoom?: number
  maxZoom: number
  count: number
}

/** The content modes in stored order (a mode's number is its index). */
export const MODES = ['full', 'thinned', 'aggregated'] as const

/** Where a source's tile archive is kept next to the store file. */
export function tileArchivePath(storeFile: string, sourceId: string): string {
  return path.join(path.dirname(storeFile), 'tile-index', `${sourceId}.tiles`)
}

/** z/x/y as one number (exact for z ≤ 24). */
export function tileKey(z: number, x: number, y: number): number {
  return z * 2 ** 48 + x * 2 ** 24 + y
}

/**
 * Writes a source's pre-rendered tiles (atomically: temp file + rename): magic, header length,
 * JSON header, then per tile key (f64), byte offset (f64), features (u32), mode (u8), then the
 * gzip bytes (written part by part: a large dataset's archive is hundreds of MiB).
 */
export function writeTileArchive(
  file: string,
  source: string,
  stamp: ArchiveStamp,
  { minZoom, maxZoom }: ArchiveZooms,
  tiles: readonly ArchivedTile[],
): void {
  const n = tiles.length
  const keys = new Float64Array(n)
  const offsets = new Float64Array(n + 1)
  const features = new Uint32Array(n)
  const modes = new Uint8Array(n)
  let off = 0
  tiles.forEach((t, i) => {
    keys[i] = tileKey(t.z, t.x, t.y)
    offsets[i] = off
    features[i] = t.features
    modes[i] = MODES.indexOf(t.mode)
    off += t.gz.length
  })
  offsets[n] = off
  const header: Header = { source, stamp, minZoom, maxZoom, count: n }
  const head = Buffer.from(JSON.stringify(header))
  const len = Buffer.alloc(8)
  len.writeUInt32LE(head.length, 0)
  const parts: Buffer[] = [Buffer.from(MAGIC), len, head]
  for (const v of [keys, offsets, features, modes])
    parts.push(Buffer.from(v.buffer, v.byteOffset, v.byteLength))
  for (const t of tiles) parts.push(t.gz)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  const fd = fs.openSync(tmp, 'w')
  try {
    // One part at a time (writeFileSync on a descriptor writes each whole, in order).
    for (const part of parts) fs.writeFileSync(fd, part)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(tmp, file)
}

export interface ReadArchive extends ArchiveZooms {
  source: string
  stamp: ArchiveStamp
  tiles: ArchivedTile[]
}

function sameStamp(a: ArchiveStamp, b: ArchiveStamp): boolean {
  return (
    a.version === b.version &&
    a.count === b.count &&
    a.content === b.content &&
    JSON.stringify(a.bbox) === JSON.stringify(b.bbox)
  )
}

/** Reads an archive rendered for exactly `stamp`; null when missing, stale or unreadable. */
export async function readTileArchive(file: string, stamp: ArchiveStamp): Promise<ReadArchive | null> {
  try {
    return await parse(await fs.promises.readFile(file), stamp)
  } catch {
    return null
  }
}

/** Tiles parsed between two turns of the event loop (a server reads archives after listen). */
const PARSE_SLICE = 2048

async function parse(buf: Buffer, stamp: ArchiveStamp): Promise<ReadArchive | null> {
  if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) return null
  const headLen = buf.readUInt32LE(8)
  const header = JSON.parse(buf.toString('utf8', 16, 16 + headLen)) as Header
  if (!sameStamp(header.stamp, stamp)) return null
  const n = header.count
  let off = 16 + headLen
  // Copy the small index arrays out (the file's offsets need not be aligned).
  const take = (bytes: number): ArrayBuffer => {
    const b = buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + bytes) as ArrayBuffer
    off += bytes
    return b
  }
  const keys = new Float64Array(take(8 * n))
  const offsets = new Float64Array(take(8 * (n + 1)))
  const features = new Uint32Array(take(4 * n))
  const modes = new Uint8Array(take(n))
  if (off + (offsets[n] as number) > buf.length) return null
  const tiles: ArchivedTile[] = []
  for (let i = 0; i < n; i++) {
    if (i > 0 && i % PARSE_SLICE === 0) await new Promise((resolve) => setImmediate(resolve))
    const key = keys[i] as number
    const z = Math.floor(key / 2 ** 48)
    const x = Math.floor((key - z * 2 ** 48) / 2 ** 24)
    const y = key - z * 2 ** 48 - x * 2 ** 24
    tiles.push({
      z,
      x,
      y,
      gz: buf.subarray(off + (offsets[i] as number), off + (offsets[i + 1] as number)),
      features: features[i] as number,
      mode: MODES[modes[i] as number] ?? 'full',
    })
  }
  return {
    source: header.source,
    stamp: header.stamp,
    minZoom: header.minZoom ?? 0,
    maxZoom: header.maxZoom,
    tiles,
  }
}
