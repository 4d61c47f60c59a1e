// Ordering a column of the records index: dense ranks, then a stable counting sort.

/** Dense ascending ranks of a numeric column (NaN → the rank after the largest value). */
export function numberRanks(values: Float64Array): { rank: Int32Array; count: number } {
  const sorted = values.slice().sort() // NaN sorts last
  let count = 0
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i] as number
    if (v !== v) break
    if (count === 0 || v !== sorted[count - 1]) sorted[count++] = v
  }
  const rank = new Int32Array(values.length)
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number
    if (v !== v) {
      rank[i] = count
      continue
    }
    let lo = 0
    let hi = count - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((sorted[mid] as number) < v) lo = mid + 1
      else hi = mid
    }
    rank[i] = lo
  }
  return { rank, count }
}

/** Ascending ranks of a text column by its (lower-cased) values; code 0 (missing) ranks last. */
export function textRanks(col: { codes: Uint32Array; dict: string[] }): { rank: Int32Array; count: number } {
  const count = col.dict.length - 1
  const byText = col.dict
    .map((_, c) => c)
    .slice(1)
    .sort((a, b) => compareText(col.dict[a], col.dict[b]))
  const codeRank = new Int32Array(col.dict.length)
  codeRank[0] = count
  byText.forEach((c, r) => (codeRank[c] = r))
  return { rank: Int32Array.from(col.codes, (c) => codeRank[c] as number), count }
}

/** Row positions ordered by rank, ties in position order (a stable counting sort). */
export function countingSort(rank: Int32Array, buckets: number): Int32Array {
  const start = new Int32Array(buckets + 1)
  for (let i = 0; i < rank.length; i++)
    start[(rank[i] as number) + 1] = (start[(rank[i] as number) + 1] as number) + 1
  for (let b = 0; b < buckets; b++) start[b + 1] = (start[b + 1] as number) + (start[b] as number)
  const order = new Int32Array(rank.length)
  for (let i = 0; i < rank.length; i++) {
    const b = rank[i] as number
    order[start[b] as number] = i
    start[b] = (start[b] as number) + 1
  }
  return order
}

function compareText(a: string | undefined, b: string | undefined): number {
  const x = a ?? ''
  const y = b ?? ''
  return x < y ? -1 : x > y ? 1 : 0
}
