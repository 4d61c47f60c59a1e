import Pbf from 'pbf'
import type { SlicedFeature } from './sliceTile'
import type { TileData, TileField } from './tileData'

/**
 * Per thread and dataset: the tile's value index of each dataset value id (-1 = not yet in this
 * tile), reset after every tile through the tile's own value list — array lookups where vt-pbf
 * builds and hashes a `type:value` string per property per feature.
 */
interface Scratch {
  strings: Int32Array
  numbers: Int32Array
  keys: Int32Array
}
const scratches = new WeakMap<TileData, Scratch>()

function scratchOf(data: TileData): Scratch {
  let s = scratches.get(data)
  if (!s) {
    s = {
      strings: new Int32Array(data.strings.length).fill(-1),
      numbers: new Int32Array(data.numbers.length).fill(-1),
      keys: new Int32Array(data.fields.length).fill(-1),
    }
    scratches.set(data, s)
  }
  return s
}

/** One layer being written: its key and value tables in first-use order. */
interface LayerState {
  data: TileData
  scratch: Scratch
  features: readonly SlicedFeature[]
  /** Field positions, in key order. */
  keys: number[]
  /** Value ids in value order: a string id s as s, a number id m as -(m + 1). */
  values: number[]
  feature: SlicedFeature | null
}

function writeProperties(st: LayerState, pbf: Pbf): void {
  const k = (st.feature as SlicedFeature).k
  const { fields } = st.data
  const { scratch } = st
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as TileField
    const code = f.codes[k] as number
    if (code < 0) continue
    let key = scratch.keys[i] as number
    if (key < 0) {
      key = st.keys.length
      st.keys.push(i)
      scratch.keys[i] = key
    }
    pbf.writeVarint(key)
    const table = f.numeric ? scratch.numbers : scratch.strings
    let value = table[code] as number
    if (value < 0) {
      value = st.values.length
      st.values.push(f.numeric ? -(code + 1) : code)
      table[code] = value
    }
    pbf.writeVarint(value)
  }
}

const zigzag = (n: number): number => (n << 1) ^ (n >> 31)

function writeGeometry(feature: SlicedFeature, pbf: Pbf): void {
  const type = feature.type
  const { xy, ringStart, ringEnd } = feature.g
  let x = 0
  let y = 0
  for (let r = feature.r0; r < feature.r1; r++) {
    const v0 = ringStart[r] as number
    const length = (ringEnd[r] as number) - v0
    pbf.writeVarint(((type === 1 ? length : 1) << 3) | 1) // MoveTo
    const count = type === 3 ? length - 1 : length // a polygon's closing vertex is ClosePath
    for (let i = 0; i < count; i++) {
      if (i === 1 && type !== 1) pbf.writeVarint(((count - 1) << 3) | 2) // LineTo
      const px = xy[2 * (v0 + i)] as number
      const py = xy[2 * (v0 + i) + 1] as number
      pbf.writeVarint(zigzag(px - x))
      pbf.writeVarint(zigzag(py - y))
      x = px
      y = py
    }
    if (type === 3) pbf.writeVarint((1 << 3) | 7) // ClosePath
  }
}

function writeFeature(st: LayerState, pbf: Pbf): void {
  const f = st.feature as SlicedFeature
  pbf.writeVarintField(1, f.id)
  pbf.writeMessage(2, writeProperties, st)
  pbf.writeVarintField(3, f.type)
  pbf.writeMessage(4, writeGeometry, f)
}

function writeValue(v: number | string, pbf: Pbf): void {
  if (typeof v === 'string') pbf.writeStringField(1, v)
  else if (v % 1 !== 0) pbf.writeDoubleField(3, v)
  else if (v < 0) pbf.writeSVarintField(6, v)
  else pbf.writeVarintField(5, v)
}

function writeLayer(st: LayerState & { name: string; extent: number }, pbf: Pbf): void {
  pbf.writeVarintField(15, 2)
  pbf.writeStringField(1, st.name)
  pbf.writeVarintField(5, st.extent)
  for (const f of st.features) {
    st.feature = f
    pbf.writeMessage(2, writeFeature, st)
  }
  for (const i of st.keys) {
    pbf.writeStringField(3, (st.data.fields[i] as TileField).name)
    st.scratch.keys[i] = -1
  }
  for (const v of st.values) {
    if (v >= 0) {
      pbf.writeMessage(4, writeValue, st.data.strings[v] as string)
      st.scratch.strings[v] = -1
    } else {
      pbf.writeMessage(4, writeValue, st.data.numbers[-v - 1] as number)
      st.scratch.numbers[-v - 1] = -1
    }
  }
}

/**
 * Encodes one MVT 2 layer of cut features (sliceTile) from a dataset's tile data. The properties
 * are the value ids assigned when the tile data was built; the bytes are those vt-pbf's
 * `fromVectorTileJs` writes for the same features (same key, value and command order), which
 * mvtEncoder.test.ts holds, decoding with @mapbox/vector-tile and GDAL's MVT driver.
 */
export function encodeLayer(
  data: TileData,
  name: string,
  features: readonly SlicedFeature[],
  extent: number,
): Uint8Array {
  const st = {
    data,
    scratch: scratchOf(data),
    features,
    keys: [],
    values: [],
    feature: null,
    name,
    extent,
  }
  const pbf = new Pbf()
  try {
    pbf.writeMessage(3, writeLayer, st)
  } catch (e) {
    // A throw mid-layer leaves ids in the scratch tables: drop them so the next tile starts clean.
    scratches.delete(data)
    throw e
  }
  return pbf.finish()
}
