import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { SharedArchiveSet, TileArchiveStorage } from '../store/tileArchiveStorage'
import { tileKey } from './tileArchiveFile'

/** One tile of a local copy: where its gzip bytes are in the file, its feature count and mode. */
export interface LocalTile {
  gz: Buffer
  features: number
  mode: number
}

/**
 * A server's local copy of one complete shared archive set (PostgreSQL mode, docs/adr/0003): the
 * tiles' gzip bytes in one file on this server's disk, in key order, and in memory only the index
 * (key, offset, feature count, mode: 21 bytes per tile, ~2.2 MiB at 1,000,000 buildings'
 * 105,000 tiles). A cold tile is one positional read of the page cache instead of a database
 * round trip. The bytes are the set's, so a tile's answer (and ETag) is the same from the copy
 * and from the database.
 */
export class LocalArchiveCopy {
  private constructor(
    readonly file: string,
    private readonly handle: fs.promises.FileHandle,
    private readonly keys: Float64Array,
    private readonly offsets: Float64Array,
    private readonly features: Uint32Array,
    private readonly modes: Uint8Array,
  ) {}

  get size(): number {
    return this.keys.length
  }

  /** The tile, or null when the set holds none at z/x/y. */
  async tile(z: number, x: number, y: number): Promise<LocalTile | null> {
    const i = search(this.keys, tileKey(z, x, y))
    if (i < 0) return null
    const start = this.offsets[i] as number
    const length = (this.offsets[i + 1] as number) - start
    const gz = Buffer.alloc(length)
    if (length > 0) {
      const { bytesRead } = await this.handle.read(gz, 0, length, start)
      if (bytesRead !== length) throw new Error(`${this.file}: short read`)
    }
    return { gz, features: this.features[i] as number, mode: this.modes[i] as number }
  }

  /** True once `drop` was called: no new read may start (the caller reads the database). */
  dropped = false

  /**
   * Deletes the file and closes it (the set was replaced). Reads under way finish: each was
   * issued to the handle in the turn `tile` was called in, `FileHandle.close` waits for pending
   * operations, and unlinking a file leaves an open descriptor's data readable.
   */
  async drop(): Promise<void> {
    this.dropped = true
    await fs.promises.rm(this.file, { force: true })
    await this.handle.close().catch(() => undefined)
  }

  /**
   * The copy of `set` already in `dir` (a restart), or null when there is none or it is not whole
   * and true to the set: its trailer must name the set (source, version, stamp, tile count,
   * bytes), the file's length must be the one the trailer implies, and the SHA-256 of the tiles
   * and index must match (one sequential read: ~0.1 s at 1,000,000 buildings' 45 MiB). A truncated,
   * altered or stale copy is never served: the caller copies the set again.
   */
  static async open(set: SharedArchiveSet, dir: string): Promise<LocalArchiveCopy | null> {
    const file = copyPath(set, dir)
    let handle: fs.promises.FileHandle
    try {
      handle = await fs.promises.open(file, 'r')
    } catch {
      return null
    }
    try {
      const { size } = await handle.stat()
      if (size < TRAILER_BYTES) return close(handle)
      const trailer = Buffer.alloc(TRAILER_BYTES)
      await readExactly(handle, trailer, size - TRAILER_BYTES)
      if (!trailer.subarray(0, 8).equals(MAGIC)) return close(handle)
      const n = trailer.readDoubleLE(8)
      const dataBytes = trailer.readDoubleLE(16)
      if (!trailer.subarray(24, 56).equals(identity(set))) return close(handle)
      if (n !== set.tiles || dataBytes !== set.bytes) return close(handle)
      if (size !== dataBytes + indexBytes(n) + TRAILER_BYTES) return close(handle)
      // Every byte before the trailer, checksummed as it was written.
      const hash = crypto.createHash('sha256')
      const chunk = Buffer.alloc(1 << 20)
      const body = size - TRAILER_BYTES
      for (let at = 0; at < body;) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(chunk.length, body - at), at)
        if (bytesRead === 0) return close(handle)
        hash.update(chunk.subarray(0, bytesRead))
        at += bytesRead
      }
      if (!hash.digest().equals(trailer.subarray(56, 88))) return close(handle)
      const index = Buffer.alloc(indexBytes(n))
      await readExactly(handle, index, dataBytes)
      // A copy into an ArrayBuffer of its own (offset 0: aligned for the typed arrays).
      const buf = new Uint8Array(index).buffer
      const keys = new Float64Array(buf, 0, n)
      const offsets = new Float64Array(buf, 8 * n, n + 1)
      const features = new Uint32Array(buf, 8 * (2 * n + 1), n)
      const modes = new Uint8Array(buf, 8 * (2 * n + 1) + 4 * n, n)
      return new LocalArchiveCopy(file, handle, keys, offsets, features, modes)
    } catch {
      return close(handle)
    }
  }

  /**
   * Copies a complete set from the shared storage into `dir` (streamed in key order, batch by
   * batch: memory stays the index plus one batch), then opens it. `stillWanted` is asked between
   * batches: a copy no longer wanted (a newer set switched in) stops and deletes its file. The
   * file ends with the index and a trailer (the set's identity, a SHA-256 of what precedes it), so
   * a restarted server reuses a whole copy (`open`).
   */
  static async fill(
    storage: TileArchiveStorage,
    set: SharedArchiveSet,
    dir: string,
    stillWanted: () => boolean = () => true,
  ): Promise<LocalArchiveCopy | null> {
    await fs.promises.mkdir(dir, { recursive: true })
    const file = copyPath(set, dir)
    const tmp = `${file}.${process.pid}.tmp`
    let n = 0
    let cap = Math.max(16, set.tiles)
    let keys = new Float64Array(cap)
    let offsets = new Float64Array(cap + 1)
    let features = new Uint32Array(cap)
    let modes = new Uint8Array(cap)
    let at = 0
    const hash = crypto.createHash('sha256')
    const out = await fs.promises.open(tmp, 'w')
    let ok = false
    try {
      let pending: Buffer[] = []
      let pendingBytes = 0
      const flush = async (): Promise<void> => {
        if (pendingBytes > 0) {
          const bytes = Buffer.concat(pending, pendingBytes)
          hash.update(bytes)
          await out.write(bytes)
        }
        pending = []
        pendingBytes = 0
      }
      for await (const t of storage.tiles(set.source, set.version)) {
        if (n === cap) {
          cap *= 2
          keys = grow(keys, new Float64Array(cap))
          offsets = grow(offsets, new Float64Array(cap + 1))
          features = grow(features, new Uint32Array(cap))
          modes = grow(modes, new Uint8Array(cap))
        }
        keys[n] = tileKey(t.z, t.x, t.y)
        offsets[n] = at
        features[n] = t.features
        modes[n] = t.mode
        n += 1
        at += t.gz.length
        pending.push(t.gz)
        pendingBytes += t.gz.length
        if (pendingBytes >= 1 << 20) {
          await flush()
          if (!stillWanted()) return null
        }
      }
      await flush()
      offsets[n] = at
      keys = keys.slice(0, n)
      offsets = offsets.slice(0, n + 1)
      features = features.slice(0, n)
      modes = modes.slice(0, n)
      // The set as its row describes it (a copy of anything else is not kept).
      if (n !== set.tiles || at !== set.bytes) return null
      const index = Buffer.concat([
        Buffer.from(keys.buffer),
        Buffer.from(offsets.buffer),
        Buffer.from(features.buffer),
        Buffer.from(modes.buffer),
      ])
      hash.update(index)
      const trailer = Buffer.alloc(TRAILER_BYTES)
      MAGIC.copy(trailer, 0)
      trailer.writeDoubleLE(n, 8)
      trailer.writeDoubleLE(at, 16)
      identity(set).copy(trailer, 24)
      hash.digest().copy(trailer, 56)
      await out.write(Buffer.concat([index, trailer]))
      await out.sync()
      ok = stillWanted()
    } finally {
      await out.close()
      if (!ok) await fs.promises.rm(tmp, { force: true })
    }
    await fs.promises.rename(tmp, file)
    const handle = await fs.promises.open(file, 'r')
    return new LocalArchiveCopy(file, handle, keys, offsets, features, modes)
  }
}

/** Start of a copy's trailer (format 1). */
const MAGIC = Buffer.from('EMBCOPY1')
/** Magic, tile count, data bytes (float64 LE each), the set's identity and the SHA-256 (32 bytes each). */
const TRAILER_BYTES = 8 + 8 + 8 + 32 + 32

/** Bytes of the index of n tiles: keys, offsets (n + 1), feature counts, modes. */
function indexBytes(n: number): number {
  return 8 * n + 8 * (n + 1) + 4 * n + n
}

function copyPath(set: SharedArchiveSet, dir: string): string {
  return path.join(dir, `${encodeURIComponent(set.source)}@${set.version}.tiles`)
}

/** What names a set: a copy of another set (or of another render's stamp) never matches. */
function identity(set: SharedArchiveSet): Buffer {
  const { source, version, stamp, tiles, bytes } = set
  return crypto.createHash('sha256').update(JSON.stringify({ source, version, stamp, tiles, bytes })).digest()
}

async function readExactly(handle: fs.promises.FileHandle, into: Buffer, position: number): Promise<void> {
  let done = 0
  while (done < into.length) {
    const { bytesRead } = await handle.read(into, done, into.length - done, position + done)
    if (bytesRead === 0) throw new Error('short read')
    done += bytesRead
  }
}

async function close(handle: fs.promises.FileHandle): Promise<null> {
  await handle.close().catch(() => undefined)
  return null
}

function grow<T extends Float64Array | Uint32Array | Uint8Array>(from: T, to: T): T {
  to.set(from)
  return to
}

/** Index of `key` in the ascending `keys`, or -1. */
function search(keys: Float64Array, key: number): number {
  let lo = 0
  let hi = keys.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1
    const k = keys[mid] as number
    if (k === key) return mid
    if (k < key) lo = mid + 1
    else hi = mid - 1
  }
  return -1
}
