import fs from 'node:fs'
import path from 'node:path'
import type { GeometryKind } from '../store/catalog'
import type { TileData, TileField } from './tileData'

const MAGIC = 'EBTILE04'

type ArrayName =
  'ids' | 'sizes' | 'featRing' | 'ringStart' | 'ringOuter' | 'coords' | 'importance' | 'largest'
const ARRAYS: { name: ArrayName; make: (b: ArrayBuffer, off: number, n: number) => ArrayBufferView }[] = [
  { name: 'ids', make: (b, o, n) => new Int32Array(b, o, n) },
  { name: 'sizes', make: (b, o, n) => new Float64Array(b, o, n) },
  { name: 'featRing', make: (b, o, n) => new Uint32Array(b, o, n) },
  { name: 'ringStart', make: (b, o, n) => new Uint32Array(b, o, n) },
  { name: 'ringOuter', make: (b, o, n) => new Uint8Array(b, o, n) },
  { name: 'coords', make: (b, o, n) => new Float64Array(b, o, n) },
  { name: 'importance', make: (b, o, n) => new Float32Array(b, o, n) },
  { name: 'largest', make: (b, o, n) => new Uint32Array(b, o, n) },
]

/** Identifies the stored data an index was built from (a fresh store restarts versions at 1). */
export interface TileDataStamp {
  version: number
  count: number
  bbox: [number, number, number, number] | null
}

interface Header {
  dataset: string
  kind: GeometryKind
  n: number
  stamp: TileDataStamp
  arrays: number[]
  index: number
  fields: { name: string; numeric: boolean }[]
  strings: string[]
  numbers: number
}

const pad8 = (n: number): number => (n + 7) & ~7

/** Where a dataset's tile data is kept next to the store file. */
export function tileDataPath(storeFile: string, dataset: string): string {
  return path.join(path.dirname(storeFile), 'tile-index', `${dataset}.bin`)
}

/** Writes the tile data (atomically: temp file + rename) so the next start loads it instead of building. */
export function writeTileData(file: string, t: TileData, stamp: TileDataStamp): void {
  const views: ArrayBufferView[] = ARRAYS.map((a) => t[a.name])
  const index = t.index ? new Uint8Array(t.index, t.indexOffset, t.indexBytes) : new Uint8Array()
  const columns: ArrayBufferView[] = [...t.fields.map((f) => f.codes), t.numbers]
  const header: Header = {
    dataset: t.dataset,
    kind: t.kind,
    n: t.n,
    stamp,
    arrays: ARRAYS.map((a) => (t[a.name] as { length: number }).length),
    index: index.byteLength,
    fields: t.fields.map((f) => ({ name: f.name, numeric: f.numeric })),
    strings: t.strings,
    numbers: t.numbers.length,
  }
  const head = Buffer.from(JSON.stringify(header))
  const parts: Buffer[] = [Buffer.from(MAGIC), Buffer.alloc(8)]
  parts[1]?.writeUInt32LE(head.length, 0)
  parts.push(head, Buffer.alloc(pad8(head.length) - head.length))
  for (const v of [...views, index, ...columns]) {
    parts.push(
      Buffer.from(v.buffer, v.byteOffset, v.byteLength),
      Buffer.alloc(pad8(v.byteLength) - v.byteLength),
    )
  }
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, Buffer.concat(parts))
  fs.renameSync(tmp, file)
}

function sameStamp(a: TileDataStamp, b: TileDataStamp): boolean {
  return a.version === b.version && a.count === b.count && JSON.stringify(a.bbox) === JSON.stringify(b.bbox)
}

/**
 * Reads tile data written for exactly `stamp` (asynchronously); null when missing, stale or
 * unreadable. With `shared` the file is read straight into one SharedArrayBuffer and every array
 * is a view of it: the worker pool gets the data without a copy, and RSS holds it once.
 */
export async function readTileData(
  file: string,
  stamp: TileDataStamp,
  shared = false,
): Promise<TileData | null> {
  try {
    if (!shared) return parse(await fs.promises.readFile(file), stamp)
    const fh = await fs.promises.open(file, 'r')
    try {
      const size = (await fh.stat()).size
      const buf = Buffer.from(new SharedArrayBuffer(size))
      for (let at = 0; at < size;) {
        const { bytesRead } = await fh.read(buf, at, Math.min(size - at, 64 << 20), at)
        if (bytesRead === 0) return null
        at += bytesRead
      }
      return parse(buf, stamp)
    } finally {
      await fh.close()
    }
  } catch {
    return null
  }
}

function parse(input: Buffer, stamp: TileDataStamp): TileData | null {
  let buf = input
  if (buf.length < 16 || buf.toString('latin1', 0, 8) !== MAGIC) return null
  if (buf.byteOffset % 8 !== 0) buf = Buffer.from(buf)
  const headLen = buf.readUInt32LE(8)
  const header = JSON.parse(buf.toString('utf8', 16, 16 + headLen)) as Header
  if (!sameStamp(header.stamp, stamp)) return null
  const ab = buf.buffer as ArrayBuffer
  let off = buf.byteOffset + 16 + pad8(headLen)
  const take = <T extends ArrayBufferView>(
    make: (b: ArrayBuffer, o: number, n: number) => T,
    n: number,
    bytes: number,
  ): T => {
    const v = make(ab, off, n)
    off += pad8(bytes)
    return v
  }
  const arrays = ARRAYS.map((a, i) => {
    const n = header.arrays[i] as number
    const bytesPer = a.name === 'ringOuter' ? 1 : a.name === 'sizes' || a.name === 'coords' ? 8 : 4
    return take(a.make, n, n * bytesPer)
  })
  const index = header.index > 0 ? ab : null
  const indexOffset = header.index > 0 ? off : 0
  off += pad8(header.index)
  const fields: TileField[] = header.fields.map((f) => ({
    name: f.name,
    numeric: f.numeric,
    codes: take((b, o, n) => new Int32Array(b, o, n), header.n, 4 * header.n),
  }))
  const numbers = take((b, o, n) => new Float64Array(b, o, n), header.numbers, 8 * header.numbers)
  if (off > buf.byteOffset + buf.length) return null
  const [ids, sizes, featRing, ringStart, ringOuter, coords, importance, largest] = arrays
  return {
    dataset: header.dataset,
    version: stamp.version,
    kind: header.kind,
    n: header.n,
    ids: ids as Int32Array,
    sizes: sizes as Float64Array,
    index,
    indexOffset,
    indexBytes: header.index,
    featRing: featRing as Uint32Array,
    ringStart: ringStart as Uint32Array,
    ringOuter: ringOuter as Uint8Array,
    coords: coords as Float64Array,
    importance: importance as Float32Array,
    largest: largest as Uint32Array,
    fields,
    strings: header.strings,
    numbers,
  }
}
