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
    : new Float64Array(blob.slice().buffer)
}

/** Reads every row once: projects, ranks vertices for simplification, indexes the boxes. */
export function buildTileData(d: DatasetDef, source: TileRows): TileData {
  const n = source.count
  const ids = new Int32Array(n)
  const sizes = new Float64Array(n)
  const boxes = new Float64Array(4 * n)
  const featRing = new Uint32Array(n + 1)
  const ringStart = new Grow(new Uint32Array(n + 16), (k) => new Uint32Array(k))
  const ringOuter = new Grow(new Uint8Array(n + 16), (k) => new Uint8Array(k))
  const coords = new Grow(new Float64Array(8 * n + 16), (k) => new Float64Array(k))
  const fields: TileField[] = d.fields.map((f) => ({
    name: f.name,
    numeric: f.type === 'number',
    codes: new Int32Array(n),
  }))
  const strings: string[] = []
  const stringIds = new Map<string, number>()
  const numbers = new Grow(new Float64Array(1024), (k) => new Float64Array(k))
  const numberIds = new Map<number, number>()
  let k = 0
  for (const row of source.rows) {
    if (k >= n) break
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
  featRing[k] = ringStart.length
  ringStart.push(coords.length >> 1)
  const xy = coords.done()
  const starts = ringStart.done()
  const importance = new Float32Array(xy.length >> 1)
  if (d.geometry !== 'point') {
    for (let r = 0; r + 1 < starts.length; r++)
      simplifyImportance(xy, importance, starts[r] as number, (starts[r + 1] as number) - 1)
  } else importance.fill(1)
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
    dataset: d.id,
    version: source.version,
    kind: d.geometry,
    n: k,
    ids: k === n ? ids : ids.slice(0, k),
    sizes: k === n ? sizes : sizes.slice(0, k),
    index,
    indexOffset: 0,
    indexBytes: index?.byteLength ?? 0,
    largest: largestFeatures(k === n ? sizes : sizes.subarray(0, k)),
    featRing: k === n ? featRing : featRing.slice(0, k + 1),
    ringStart: starts,
    ringOuter: ringOuter.done(),
    coords: xy,
    importance,
    fields: k === n ? fields : fields.map((f) => ({ ...f, codes: f.codes.slice(0, k) })),
    strings,
    numbers: numbers.done(),
  }
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
