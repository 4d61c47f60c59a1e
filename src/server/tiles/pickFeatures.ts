import Flatbush from 'flatbush'

type Box = readonly [number, number, number, number]

/** The value of rank `k` (0-based, ascending) of `a`, which it partly reorders (quickselect). */
function select(a: Float64Array, k: number): number {
  let lo = 0
  let hi = a.length - 1
  while (hi > lo) {
    const mid = (lo + hi) >> 1
    const pivot = Math.max(
      Math.min(a[lo] as number, a[hi] as number),
      Math.min(Math.max(a[lo] as number, a[hi] as number), a[mid] as number),
    )
    let i = lo
    let j = hi
    while (i <= j) {
      while ((a[i] as number) < pivot) i++
      while ((a[j] as number) > pivot) j--
      if (i <= j) {
        const t = a[i] as number
        a[i] = a[j] as number
        a[j] = t
        i++
        j--
      }
    }
    if (k <= j) hi = j
    else if (k >= i) lo = i
    else return a[k] as number
  }
  return a[k] as number
}

/** The `limit` largest of `hits` (TileData positions; ties by position, i.e. id), in position order. */
function largestOf(hits: ArrayLike<number>, sizes: Float64Array, limit: number): Int32Array {
  const n = hits.length
  if (n <= limit) return Int32Array.from(hits).sort()
  const s = new Float64Array(n)
  for (let i = 0; i < n; i++) s[i] = sizes[hits[i] as number] as number
  const threshold = select(s, n - limit)
  const out = new Int32Array(limit)
  let m = 0
  let ties = 0
  for (let i = 0; i < n; i++) {
    const v = sizes[hits[i] as number] as number
    if (v > threshold) out[m++] = hits[i] as number
    else if (v === threshold) ties++
  }
  if (ties > 0) {
    const tied = new Int32Array(ties)
    let t = 0
    for (let i = 0; i < n; i++) if (sizes[hits[i] as number] === threshold) tied[t++] = hits[i] as number
    tied.sort()
    for (let i = 0; m < limit && i < tied.length; i++) out[m++] = tied[i] as number
  }
  return out.sort()
}

/** One index of a dataset's largest features: Flatbush slot i holds TileData position `pos[i]`. */
interface Level {
  index: Flatbush
  pos: Uint32Array
}

function levelOf(pos: Uint32Array, boxOf: (k: number) => Box): Level {
  const index = new Flatbush(pos.length)
  for (const k of pos) {
    const b = boxOf(k)
    index.add(b[0], b[1], b[2], b[3])
  }
  index.finish()
  return { index, pos }
}

/** The top `m` of `pos` by size (ties by position), in position order. */
function topOf(pos: Uint32Array, sizes: Float64Array, m: number): Uint32Array {
  const sorted = Float64Array.from(pos, (k) => sizes[k] as number).sort()
  const threshold = sorted[pos.length - m] as number
  let ties = m
  for (const k of pos) if ((sizes[k] as number) > threshold) ties -= 1
  const out = new Uint32Array(m)
  let j = 0
  for (const k of pos) {
    const s = sizes[k] as number
    if (s > threshold || (s === threshold && ties-- > 0)) out[j++] = k
  }
  return out
}

/**
 * A dataset's box index for picking a tile's features. Besides the Flatbush of every feature it
 * may hold indexes of the dataset's largest features only (`largest`: the top sixteenth by size,
 * ties by position — chosen when the tile data is built —, and the top sixteenth of those): a
 * thinned tile keeping the `limit` largest of a dense area searches the smallest of them that
 * holds more than `limit` of its features, and the full index only when none does. Same answer either way: every feature of the small index ranks
 * above every other, so when more than `limit` of them meet the tile the `limit` largest of the
 * tile are among them.
 */
export class TileIndex {
  /** Smallest first: the largest 1/256, then 1/16 of the features (when the dataset is dense). */
  private readonly levels: Level[] = []

  constructor(
    readonly all: Flatbush,
    private readonly sizes: Float64Array,
    largest: Uint32Array,
    boxOf: (k: number) => Box,
  ) {
    if (largest.length === 0) return
    const top = Math.ceil(largest.length / 16)
    if (top >= 256) this.levels.push(levelOf(topOf(largest, sizes, top), boxOf))
    this.levels.push(levelOf(largest, boxOf))
  }

  /** Flatbush's search over every feature. */
  search(minX: number, minY: number, maxX: number, maxY: number, filter?: (k: number) => boolean): number[] {
    return this.all.search(minX, minY, maxX, maxY, filter)
  }

  /**
   * Features (TileData positions) whose box meets `box` and whose size ≥ minSize; when more than
   * `limit` match, the `limit` largest (ties by position, i.e. id). Returned in position order.
   * `matched` is how many matched — or, when the small index answered, how many of its features
   * did (a lower bound, already above `limit`).
   */
  pick(box: Box, minSize: number, limit: number): { picked: Int32Array; matched: number } {
    const sizes = this.sizes
    for (const { index, pos } of this.levels) {
      if (limit >= pos.length) continue
      const hits = index.search(
        box[0],
        box[1],
        box[2],
        box[3],
        minSize > 0 ? (i) => (sizes[pos[i] as number] as number) >= minSize : undefined,
      )
      if (hits.length > limit) {
        const positions = new Int32Array(hits.length)
        for (let i = 0; i < hits.length; i++) positions[i] = pos[hits[i] as number] as number
        return { picked: largestOf(positions, sizes, limit), matched: positions.length }
      }
    }
    const hits =
      minSize > 0
        ? this.all.search(box[0], box[1], box[2], box[3], (k) => (sizes[k] as number) >= minSize)
        : this.all.search(box[0], box[1], box[2], box[3])
    return { picked: largestOf(hits, sizes, limit), matched: hits.length }
  }
}

/** Datasets of at least this many features get the index of their largest. */
export const LARGEST_MIN_FEATURES = 65_536

/**
 * Positions of the largest sixteenth of a dataset's features (size descending, ties by position),
 * in position order — empty for smaller datasets.
 */
export function largestFeatures(sizes: Float64Array): Uint32Array {
  const n = sizes.length
  if (n < LARGEST_MIN_FEATURES) return new Uint32Array()
  const m = Math.ceil(n / 16)
  const sorted = Float64Array.from(sizes).sort()
  const threshold = sorted[n - m] as number
  const out = new Uint32Array(m)
  let above = 0
  for (let k = 0; k < n; k++) if ((sizes[k] as number) > threshold) above += 1
  let ties = m - above
  let j = 0
  for (let k = 0; k < n && j < m; k++) {
    const s = sizes[k] as number
    if (s > threshold) out[j++] = k
    else if (s === threshold && ties > 0) {
      out[j++] = k
      ties -= 1
    }
  }
  return out
}
