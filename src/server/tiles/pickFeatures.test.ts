import Flatbush from 'flatbush'
import { describe, expect, it } from 'vitest'
import { largestFeatures, LARGEST_MIN_FEATURES, TileIndex } from './pickFeatures'

// A dense dataset: clustered boxes, sizes with many ties (rounded), so the index of the largest
// sixteenth answers thinned picks in dense areas and the full index the rest.
let seed = 7
const rand = (): number => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646
const n = LARGEST_MIN_FEATURES + 4_000
const boxes = new Float64Array(4 * n)
const sizes = new Float64Array(n)
const all = new Flatbush(n)
for (let k = 0; k < n; k++) {
  const c = rand() < 0.7 ? 0.5 + (rand() - 0.5) * 0.02 : rand()
  const x = c + (rand() - 0.5) * 0.01
  const y = 0.5 + (rand() - 0.5) * (c === 0.5 ? 0.02 : 1)
  const r = Math.round(rand() * rand() * 200) / 1e5
  const s = r === 0 ? 1e-6 : r
  sizes[k] = s
  boxes.set([x, y, x + s / 2, y + s / 2], 4 * k)
  all.add(x, y, x + s / 2, y + s / 2)
}
all.finish()
const boxOf = (k: number) =>
  [boxes[4 * k], boxes[4 * k + 1], boxes[4 * k + 2], boxes[4 * k + 3]] as [number, number, number, number]

/** The plain pick: every feature meeting the box, the `limit` largest (ties by position). */
function reference(box: readonly number[], minSize: number, limit: number) {
  const hits = all.search(box[0] as number, box[1] as number, box[2] as number, box[3] as number, (k) =>
    minSize > 0 ? (sizes[k] as number) >= minSize : true,
  )
  const ranked = [...hits].sort((a, b) => (sizes[b] as number) - (sizes[a] as number) || a - b)
  return { picked: ranked.slice(0, limit).sort((a, b) => a - b), matched: hits.length }
}

describe('TileIndex: picking with the index of the largest features', () => {
  it('keeps the largest sixteenth, ties by position', () => {
    const largest = largestFeatures(sizes)
    expect(largest.length).toBe(Math.ceil(n / 16))
    const ranked = Array.from({ length: n }, (_, k) => k).sort(
      (a, b) => (sizes[b] as number) - (sizes[a] as number) || a - b,
    )
    expect(Array.from(largest)).toEqual(ranked.slice(0, largest.length).sort((a, b) => a - b))
    expect(largestFeatures(sizes.subarray(0, LARGEST_MIN_FEATURES - 1))).toHaveLength(0)
  })

  it('picks exactly what the full search picks, dense and sparse, with and without minSize', () => {
    const index = new TileIndex(all, sizes, largestFeatures(sizes), boxOf)
    let fromLarge = 0
    for (let i = 0; i < 200; i++) {
      const w = [0.002, 0.01, 0.05, 0.3][i % 4] as number
      const cx = i % 3 === 0 ? 0.5 : rand()
      const box = [cx - w, 0.5 - w, cx + w, 0.5 + w] as const
      const limit = [50, 500, 2000, 4000][Math.floor(i / 4) % 4] as number
      const minSize = i % 5 === 0 ? 5e-4 : 0
      const got = index.pick(box, minSize, limit)
      const want = reference(box, minSize, limit)
      expect(Array.from(got.picked), `box ${box.join(',')} limit ${limit}`).toEqual(want.picked)
      if (want.matched > limit) expect(got.matched).toBeGreaterThan(limit)
      else expect(got.matched).toBe(want.matched)
      if (got.matched < want.matched) fromLarge += 1
    }
    expect(fromLarge, 'picks answered by the small index').toBeGreaterThan(20)
  })
})
