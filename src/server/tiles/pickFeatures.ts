import type Flatbush from 'flatbush'

/**
 * Features (TileData positions) whose box meets `box` and whose size ≥ minSize; when more than
 * `limit` match, the `limit` largest (ties by position, i.e. id). Returned in position order.
 */
export function pickFeatures(
  index: Flatbush | null,
  sizes: Float64Array,
  box: readonly [number, number, number, number],
  minSize: number,
  limit: number,
): { picked: number[]; matched: number } {
  if (!index) return { picked: [], matched: 0 }
  const hits =
    minSize > 0
      ? index.search(box[0], box[1], box[2], box[3], (k) => (sizes[k] as number) >= minSize)
      : index.search(box[0], box[1], box[2], box[3])
  if (hits.length <= limit) return { picked: hits.sort((a, b) => a - b), matched: hits.length }
  const sorted = Float64Array.from(hits, (k) => sizes[k] as number).sort()
  const threshold = sorted[sorted.length - limit] as number
  const above = hits.filter((k) => (sizes[k] as number) > threshold)
  const ties = hits.filter((k) => sizes[k] === threshold).sort((a, b) => a - b)
  const picked = above.concat(ties.slice(0, limit - above.length))
  return { picked: picked.sort((a, b) => a - b), matched: hits.length }
}
