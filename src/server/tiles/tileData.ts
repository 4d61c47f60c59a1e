import Flatbush from 'flatbush'
import { largestFeatures, TileIndex } from './pickFeatures'
import type { DatasetDef, GeometryKind } from '../store/catalog'
import { mercX, mercY } from '../store/geometryCodec'
import type { TileRows } from '../store/tileRows'
import { simplifyImportance } from './simplifyImportance'

/**
 * One attribute column as value ids, assigned once when the tile data is built: a string field's
 * ids index `TileData.strings`, a number field's `TileData.numbers` (-1 = missing). One
 * dictionary per kind for the whole dataset, so cutting a tile maps ids to the tile's value table
 * without hashing a property (see mvtEncoder.ts).
 */
export interface TileField {
  name: string
  numeric: boolean
  codes: Int32Array
}

/**
 * A dataset held for tiles: geometry pre-projected to Web Mercator world units (0..1) in typed
 * arrays, per-vertex simplification importance, attributes in columns, and a Flatbush index of
 * the feature boxes. Every array is transferable, so a worker thread can build it.
 * Feature k: rings `featRing[k]..featRing[k+1]-1`; ring r: vertices `ringStart[r]..ringStart[r+1]-1`
 * (`ringOuter[r]` = 1 for a polygon's outer ring, every line and every point).
 */
export interface TileData {
  dataset: string
  version: number
  kind: GeometryKind
  n: number
  ids: Int32Array
  /** Size ranks (√area, line extent; points get 1). */
  sizes: Float64Array
  /** Flatbush data over the mercator boxes (null when empty): `indexBytes` from byte `indexOffset`. */
  index: ArrayBuffer | SharedArrayBuffer | null
  indexOffset: number
  indexBytes: number
  /** Positions of the largest sixteenth of the features of a dense dataset (see TileIndex), in position order. */
  largest: Uint32Array
  featRing: Uint32Array
  ringStart: Uint32Array
  ringOuter: Uint8Array
  coords: Float64Array
  importance: Float32Array
  fields: TileField[]
  /** Distinct string values of every string field (ids 0..strings.length-1). */
  strings: string[]
  /** Distinct numbers of every number field (ids 0..numbers.length-1). */
  numbers: Float64Array
}

class Grow<T extends Float64Array | Uint32Array | Uint8Array | Float32Array> {
  length = 0
  constructor(
    public a: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number): void {
    if (this.length === this.a.length) {
      const b = this.make(this.a.length * 2)
      b.set(this.a)
      this.a = b
    }
    this.a[this.length++] = v
  }
  done(): T {
    return this.a.slice(0, this.length) as T
  }
}

function f64(blob: Uint8Array): Float64Array {
  return blob.byteOffset % 8 === 0
    ? new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength >> 3)
    : new Float64Array(new Uint8Array(blob).buffer) // a copy: Buffer#slice would be a view
}

/** Rows read between two turns of the event loop by `buildTileDataYielding` (about 20-40 ms of work). */
const ROWS_PER_SLICE = 5_000

/**
 * Builds a dataset's TileData in steps: `rows(max)` reads up to `max` more rows (projects them,
 * boxes them, codes their attributes), `importance(max)` ranks the vertices of up to `max` more
 * rings, `done()` indexes the boxes and answers the data. One build, run at once
 * (`buildTileData`) or between turns of the event loop (`buildTileDataYielding`).
 */
class TileDataBuilder {
  private readonly n: number
  private readonly ids: Int32Array
  private readonly sizes: Float64Array
  private readonly boxes: Float64Array
  private readonly featRing: Uint32Array
  private readonly ringStart: Grow<Uint32Array>
  private readonly ringOuter: Grow<Uint8Array>
  private readonly coords: Grow<Float64Array>
  private readonly fields: TileField[]
  private readonly strings: string[] = []
  private readonly stringIds = new Map<string, number>()
  private readonly numbers = new Grow(new Float64Array(1024), (k) => new Float64Array(k))
  private readonly numberIds = new Map<number, number>()
  private readonly iterator: Iterator<unknown[]>
  private k = 0
  private xy: Float64Array | null = null
  private starts: Uint32Array | null = null
  private importanceOf: Float32Array | null = null
  private ring = 0

  constructor(
    private readonly d: DatasetDef,
    private readonly source: TileRows,
  ) {
    const n = source.count
    this.n = n
    this.ids = new Int32Array(n)
    this.sizes = new Float64Array(n)
    this.boxes = new Float64Array(4 * n)
    this.featRing = new Uint32Array(n + 1)
    this.ringStart = new Grow(new Uint32Array(n + 16), (k) => new Uint32Array(k))
    this.ringOuter = new Grow(new Uint8Array(n + 16), (k) => new Uint8Array(k))
    this.coords = new Grow(new Float64Array(8 * n + 16), (k) => new Float64Array(k))
    this.fields = d.fields.map((f) => ({
      name: f.name,
      numeric: f.type === 'number',
      codes: new Int32Array(n),
    }))
    this.iterator = source.rows[Symbol.iterator]()
  }

  /**
   * Reads up to `max` rows; false once every row is read (rows beyond `count` are not read, and
   * the rows' iterator is closed then or on an error: a SQLite iterator holds its connection).
   */
  rows(max: number): boolean {
    try {
      const more = this.readRows(max)
      if (!more) this.iterator.return?.()
      return more
    } catch (err) {
      this.iterator.return?.()
      throw err
    }
  }

  private readRows(max: number): boolean {
    const { n, ids, sizes, boxes, featRing, ringStart, ringOuter, coords, fields } = this
    const { strings, stringIds, numbers, numberIds, iterator } = this
    let k = this.k
    const stop = Math.min(n, k + max)
    let more = k < n
    while (k < stop) {
      const next = iterator.next()
      if (next.done) {
        more = false
        break
      }
      const row = next.value
      ids[k] = row[0] as number
      const size = row[1] as number
      sizes[k] = size === 0 ? 1 : size
      featRing[k] = ringStart.length
      const g = f64(row[2] as Uint8Array)
      let minx = Infinity
      let miny = Infinity
      let maxx = -Infinity
      let maxy = -Infinity
      let p = 0
      const nParts = g[p++] as number
      for (let i = 0; i < nParts; i++) {
        const nRings = g[p++] as number
        for (let r = 0; r < nRings; r++) {
          const nPts = g[p++] as number
          ringStart.push(coords.length >> 1)
          ringOuter.push(r === 0 ? 1 : 0)
          for (let j = 0; j < nPts; j++) {
            const x = mercX(g[p++] as number)
            const y = mercY(g[p++] as number)
            coords.push(x)
            coords.push(y)
            if (x < minx) minx = x
            if (x > maxx) maxx = x
            if (y < miny) miny = y
            if (y > maxy) maxy = y
          }
        }
      }
      boxes.set([minx, miny, maxx, maxy], 4 * k)
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i] as TileField
        const v = row[i + 3]
        let code = -1
        if (f.numeric) {
          if (typeof v === 'number' && !Number.isNaN(v)) {
            code = numberIds.get(v) ?? -1
            if (code < 0) {
              code = numbers.length
              numbers.push(v)
              numberIds.set(v, code)
            }
          }
        } else if (v !== null && v !== undefined) {
          const s = String(v)
          code = stringIds.get(s) ?? -1
          if (code < 0) {
            code = strings.length
            strings.push(s)
            stringIds.set(s, code)
          }
        }
        f.codes[k] = code
      }
      k += 1
    }
    this.k = k
    return more && k < n
  }

  /** Ranks the vertices of up to `max` more rings; false once every ring is ranked. */
  importance(max: number): boolean {
    if (!this.xy || !this.starts || !this.importanceOf) {
      this.featRing[this.k] = this.ringStart.length
      this.ringStart.push(this.coords.length >> 1)
      this.xy = this.coords.done()
      this.starts = this.ringStart.done()
      this.importanceOf = new Float32Array(this.xy.length >> 1)
      if (this.d.geometry === 'point') {
        this.importanceOf.fill(1)
        this.ring = this.starts.length
      }
    }
    const { xy, starts, importanceOf } = this
    const stop = Math.min(starts.length - 1, this.ring + max)
    for (let r = this.ring; r < stop; r++)
      simplifyImportance(xy, importanceOf, starts[r] as number, (starts[r + 1] as number) - 1)
    this.ring = Math.max(this.ring, stop)
    return this.ring + 1 < starts.length
  }

  /** Indexes the boxes and answers the data (after `rows` and `importance` answered false). */
  done(): TileData {
    const { n, k, ids, sizes, boxes, featRing, fields } = this
    const xy = this.xy as Float64Array
    const starts = this.starts as Uint32Array
    let index: ArrayBuffer | null = null
    if (k > 0) {
      const fb = new Flatbush(k)
      for (let i = 0; i < k; i++)
        fb.add(
          boxes[4 * i] as number,
          boxes[4 * i + 1] as number,
          boxes[4 * i + 2] as number,
          boxes[4 * i + 3] as number,
        )
      fb.finish()
      index = fb.data as ArrayBuffer
    }
    return {
      dataset: this.d.id,
      version: this.source.version,
      kind: this.d.geometry,
      n: k,
      ids: k === n ? ids : ids.slice(0, k),
      sizes: k === n ? sizes : sizes.slice(0, k),
      index,
      indexOffset: 0,
      indexBytes: index?.byteLength ?? 0,
      largest: largestFeatures(k === n ? sizes : sizes.subarray(0, k)),
      featRing: k === n ? featRing : featRing.slice(0, k + 1),
      ringStart: starts,
      ringOuter: this.ringOuter.done(),
      coords: xy,
      importance: this.importanceOf as Float32Array,
      fields: k === n ? fields : fields.map((f) => ({ ...f, codes: f.codes.slice(0, k) })),
      strings: this.strings,
      numbers: this.numbers.done(),
    }
  }
}

/** Reads every row once: projects, ranks vertices for simplification, indexes the boxes. */
export function buildTileData(d: DatasetDef, source: TileRows): TileData {
  const b = new TileDataBuilder(d, source)
  b.rows(Infinity)
  b.importance(Infinity)
  return b.done()
}

/**
 * `buildTileData` in slices between turns of the event loop, for a build in the server's own
 * thread (a store without a file, whose worker threads cannot read the rows): requests keep
 * being answered while a large dataset builds. Same data as `buildTileData`.
 */
export async function buildTileDataYielding(
  d: DatasetDef,
  source: TileRows,
  rowsPerSlice = ROWS_PER_SLICE,
): Promise<TileData> {
  const b = new TileDataBuilder(d, source)
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve))
  while (b.rows(rowsPerSlice)) await turn()
  while (b.importance(rowsPerSlice)) await turn()
  return b.done()
}

/** The buffers to transfer when posting a TileData from a worker. */
export function tileDataTransfer(t: TileData): ArrayBuffer[] {
  const out: ArrayBuffer[] = [
    t.ids.buffer,
    t.sizes.buffer,
    t.featRing.buffer,
    t.ringStart.buffer,
    t.ringOuter.buffer,
    t.coords.buffer,
    t.importance.buffer,
    t.numbers.buffer,
    t.largest.buffer,
  ] as ArrayBuffer[]
  if (t.index instanceof ArrayBuffer && t.indexBytes === t.index.byteLength) out.push(t.index)
  for (const f of t.fields) out.push(f.codes.buffer as ArrayBuffer)
  return out.filter((b, i) => out.indexOf(b) === i)
}

function shared<T extends Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array>(
  a: T,
  make: (b: SharedArrayBuffer) => T,
): T {
  if (a.buffer instanceof SharedArrayBuffer) return a
  const out = make(new SharedArrayBuffer(a.byteLength))
  out.set(a)
  return out
}

/** The same tile data in SharedArrayBuffers, so worker threads read it without copies. */
export function sharedTileData(t: TileData): TileData {
  let index = t.index
  let indexOffset = t.indexOffset
  if (index && !(index instanceof SharedArrayBuffer)) {
    const sab = new SharedArrayBuffer(t.indexBytes)
    new Uint8Array(sab).set(new Uint8Array(index, indexOffset, t.indexBytes))
    index = sab
    indexOffset = 0
  }
  return {
    ...t,
    index,
    indexOffset,
    ids: shared(t.ids, (b) => new Int32Array(b)),
    sizes: shared(t.sizes, (b) => new Float64Array(b)),
    featRing: shared(t.featRing, (b) => new Uint32Array(b)),
    ringStart: shared(t.ringStart, (b) => new Uint32Array(b)),
    ringOuter: shared(t.ringOuter, (b) => new Uint8Array(b)),
    coords: shared(t.coords, (b) => new Float64Array(b)),
    importance: shared(t.importance, (b) => new Float32Array(b)),
    numbers: shared(t.numbers, (b) => new Float64Array(b)),
    largest: shared(t.largest, (b) => new Uint32Array(b)),
    fields: t.fields.map((f) => ({ ...f, codes: shared(f.codes, (b) => new Int32Array(b)) })),
  }
}

/** The Flatbush index of a dataset's tile data (a view over its bytes, no copy). */
export function spatialIndex(t: TileData): TileIndex | null {
  if (!t.index) return null
  const { coords, featRing, ringStart } = t
  return new TileIndex(Flatbush.from(t.index as ArrayBuffer, t.indexOffset), t.sizes, t.largest, (k) => {
    let minx = Infinity
    let miny = Infinity
    let maxx = -Infinity
    let maxy = -Infinity
    for (
      let v = ringStart[featRing[k] as number] as number;
      v < (ringStart[featRing[k + 1] as number] as number);
      v++
    ) {
      const x = coords[2 * v] as number
      const y = coords[2 * v + 1] as number
      if (x < minx) minx = x
      if (x > maxx) maxx = x
      if (y < miny) miny = y
      if (y > maxy) maxy = y
    }
    return [minx, miny, maxx, maxy]
  })
}

/** A feature's properties from its value ids (missing values left out). */
export function tagsOf(t: TileData, k: number): Record<string, string | number> {
  const tags: Record<string, string | number> = {}
  for (const f of t.fields) {
    const c = f.codes[k] as number
    if (c >= 0) tags[f.name] = (f.numeric ? t.numbers[c] : t.strings[c]) as string | number
  }
  return tags
}
