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

  /** Closes the file and deletes it (the set was replaced). */
  async drop(): Promise<void> {
    await this.handle.close().catch(() => undefined)
    await fs.promises.rm(this.file, { force: true })
  }

  /**
   * Copies a complete set from the shared storage into `dir` (streamed in key order, batch by
   * batch: memory stays the index plus one batch), then opens it. `stillWanted` is asked between
   * batches: a copy no longer wanted (a newer set switched in) stops and deletes its file.
   */
  static async fill(
    storage: TileArchiveStorage,
    set: SharedArchiveSet,
    dir: string,
    stillWanted: () => boolean = () => true,
  ): Promise<LocalArchiveCopy | null> {
    await fs.promises.mkdir(dir, { recursive: true })
    const file = path.join(dir, `${encodeURIComponent(set.source)}@${set.version}.tiles`)
    const tmp = `${file}.${process.pid}.tmp`
    let n = 0
    let cap = Math.max(16, set.tiles)
    let keys = new Float64Array(cap)
    let offsets = new Float64Array(cap + 1)
    let features = new Uint32Array(cap)
    let modes = new Uint8Array(cap)
    let at = 0
    const out = await fs.promises.open(tmp, 'w')
    let ok = false
    try {
      let pending: Buffer[] = []
      let pendingBytes = 0
      const flush = async (): Promise<void> => {
        if (pendingBytes > 0) await out.write(Buffer.concat(pending, pendingBytes))
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
      ok = stillWanted()
    } finally {
      await out.close()
      if (!ok) await fs.promises.rm(tmp, { force: true })
    }
    await fs.promises.rename(tmp, file)
    const handle = await fs.promises.open(file, 'r')
    return new LocalArchiveCopy(
      file,
      handle,
      keys.slice(0, n),
      offsets.slice(0, n + 1),
      features.slice(0, n),
      modes.slice(0, n),
    )
  }
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
