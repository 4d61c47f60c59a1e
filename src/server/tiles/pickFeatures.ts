import Flatbush from 'flatbush'

type Box = readonly [number, number, number, number]

/** The `limit` largest of `hits` (TileData positions; ties by position, i.e. id), in position order. */
function largestOf(hits: number[], sizes: Float64Array, limit: number): number[] {
  if (hits.length <= limit) return hits.sort((a, b) => a - b)
  const sorted = Float64Array.from(hits, (k) => sizes[k] as number).sort()
  const threshold = sorted[sorted.length - limit] as number
  const above = hits.filter((k) => (sizes[k] as number) > threshold)
  const ties = hits.filter((k) => sizes[k] === threshold).sort((a, b) => a - b)
  const picked = above.concat(ties.slice(0, limit - above.length))
  return picked.sort((a, b) => a - b)
}

/**
 * A dataset's box index for picking a tile's features. Besides the Flatbush of every feature it
 * may hold one of the dataset's largest features only (`largest`: the top sixteenth by size, ties
 * by position — chosen when the tile data is built): a thinned tile keeping the `limit` largest
 * of a dense area then searches that small index, and only falls back to the full one when it
 * finds `limit` or fewer there. Same answer either way: every feature of the small index ranks
 * above every other, so when more than `limit` of them meet the tile the `limit` largest of the
 * tile are among them.
 */
export class TileIndex {
  private readonly large: Flatbush | null

  constructor(
    readonly all: Flatbush,
    private readonly sizes: Float64Array,
    private readonly largest: Uint32Array,
    boxOf: (k: number) => Box,
  ) {
    this.large = null
    if (largest.length > 0) {
      const fb = new Flatbush(largest.length)
      for (const k of largest) {
        const b = boxOf(k)
        fb.add(b[0], b[1], b[2], b[3])
      }
      fb.finish()
      this.large = fb
    }
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
  pick(box: Box, minSize: number, limit: number): { picked: number[]; matched: number } {
    const sizes = this.sizes
    if (this.large && limit < this.largest.length) {
      const largest = this.largest
      const hits = this.large.search(
        box[0],
        box[1],
        box[2],
        box[3],
        minSize > 0 ? (i) => (sizes[largest[i] as number] as number) >= minSize : undefined,
      )
      if (hits.length > limit) {
        const positions = hits.map((i) => largest[i] as number)
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
