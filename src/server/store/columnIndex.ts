export type NumericOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte'

/** A validated filter: numeric comparison, or case-insensitive 'contains' on text. */
export type ColumnFilter =
  { field: string; op: NumericOp; value: number } | { field: string; op: 'contains'; value: string }

/** Records order: a field, ascending or descending (missing values last); ties by id. */
export interface SortKey {
  field: string
  descending: boolean
}

/**
 * One indexed column, row order = id order. Numbers: NaN is missing. Text: `codes` index
 * `dict` (lower-cased values); code 0 is reserved for missing and never matches.
 */
export type Column =
  { kind: 'number'; values: Float64Array } | { kind: 'text'; codes: Uint32Array; dict: string[] }

/** Bytes of matched row positions kept per index (LRU); a repeated filter set answers from it. */
const CACHE_BYTES = 64 * 1024 * 1024

/**
 * The filterable columns of one dataset held in typed arrays (row order = id order), so any
 * combination of filters is one linear pass per filter. The matching row positions of each
 * filter set (and sort) are cached per index, and an index is built per dataset version, so a
 * repeated query answers page and total without scanning.
 */
export class ColumnIndex {
  private readonly cache = new Map<string, Int32Array>()
  private cachedBytes = 0
  private readonly orders = new Map<string, Int32Array>()

  constructor(
    readonly ids: Int32Array,
    private readonly columns: ReadonlyMap<string, Column>,
  ) {}

  column(field: string): Column | undefined {
    return this.columns.get(field)
  }

  /** Ids of rows [offset, offset+limit) among those matching every filter, and how many match. */
  query(
    filters: readonly ColumnFilter[],
    limit: number,
    offset: number,
    sort?: SortKey,
  ): { ids: number[]; total: number } {
    const rows = this.matches(filters, sort)
    const page = rows.subarray(Math.min(offset, rows.length), Math.min(offset + limit, rows.length))
    return { ids: Array.from(page, (r) => this.ids[r] as number), total: rows.length }
  }

  /** Row positions matching the filters, in id order or in `sort` order (cached, LRU by bytes). */
  private matches(filters: readonly ColumnFilter[], sort: SortKey | undefined): Int32Array {
    const key =
      filters
        .map((f) => JSON.stringify([f.field, f.op, f.value]))
        .sort()
        .join('&') + (sort ? `|${sort.descending ? '-' : ''}${sort.field}` : '')
    const hit = this.cache.get(key)
    if (hit) {
      this.cache.delete(key)
      this.cache.set(key, hit)
      return hit
    }
    const n = this.ids.length
    const mask = new Uint8Array(n).fill(1)
    for (const f of filters) this.narrow(f, mask)
    const order = sort ? this.order(sort) : null
    let total = 0
    for (let i = 0; i < n; i++) total += mask[i] as number
    const rows = new Int32Array(total)
    let k = 0
    if (order) {
      for (let j = 0; j < n; j++) {
        const r = order[j] as number
        if (mask[r] === 1) rows[k++] = r
      }
    } else for (let i = 0; i < n; i++) if (mask[i] === 1) rows[k++] = i
    this.remember(key, rows)
    return rows
  }

  private remember(key: string, rows: Int32Array): void {
    this.cache.set(key, rows)
    this.cachedBytes += rows.byteLength
    for (const [k, v] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES || k === key) break
      this.cache.delete(k)
      this.cachedBytes -= v.byteLength
    }
  }

  /** Every row position ordered by a column (missing last, ties by id); built once per column. */
  private order(sort: SortKey): Int32Array {
    const key = `${sort.descending ? '-' : ''}${sort.field}`
    const have = this.orders.get(key)
    if (have) return have
    const col = this.columns.get(sort.field)
    if (!col) throw new Error(`column ${sort.field} is not indexed`)
    const n = this.ids.length
    let rank: Float64Array
    if (col.kind === 'number') rank = col.values
    else {
      const byText = col.dict.map((_, c) => c).sort((a, b) => compareText(col.dict[a], col.dict[b]))
      const codeRank = new Float64Array(col.dict.length)
      byText.forEach((c, r) => (codeRank[c] = r))
      codeRank[0] = NaN
      rank = Float64Array.from(col.codes, (c) => codeRank[c] as number)
    }
    const sign = sort.descending ? -1 : 1
    const order = new Int32Array(n)
    for (let i = 0; i < n; i++) order[i] = i
    order.sort((a, b) => {
      const x = rank[a] as number
      const y = rank[b] as number
      if (x !== x) return y !== y ? a - b : 1
      if (y !== y) return -1
      return x === y ? a - b : (x < y ? -1 : 1) * sign
    })
    this.orders.set(key, order)
    return order
  }

  private narrow(f: ColumnFilter, mask: Uint8Array): void {
    const col = this.columns.get(f.field)
    if (!col) throw new Error(`column ${f.field} is not indexed`)
    const n = mask.length
    if (f.op === 'contains') {
      if (col.kind !== 'text') throw new Error(`column ${f.field} is numeric`)
      const needle = f.value.toLowerCase()
      const hit = new Uint8Array(col.dict.length)
      col.dict.forEach((s, c) => (hit[c] = c !== 0 && s.includes(needle) ? 1 : 0))
      const codes = col.codes
      for (let i = 0; i < n; i++) if (hit[codes[i] as number] === 0) mask[i] = 0
      return
    }
    if (col.kind !== 'number') throw new Error(`column ${f.field} is text`)
    const v = col.values
    const x = f.value
    // NaN (missing) fails every comparison below, so missing values never match.
    switch (f.op) {
      case 'eq':
        for (let i = 0; i < n; i++) if (!(v[i] === x)) mask[i] = 0
        return
      case 'neq':
        for (let i = 0; i < n; i++) if (!((v[i] as number) < x || (v[i] as number) > x)) mask[i] = 0
        return
      case 'gt':
        for (let i = 0; i < n; i++) if (!((v[i] as number) > x)) mask[i] = 0
        return
      case 'gte':
        for (let i = 0; i < n; i++) if (!((v[i] as number) >= x)) mask[i] = 0
        return
      case 'lt':
        for (let i = 0; i < n; i++) if (!((v[i] as number) < x)) mask[i] = 0
        return
      case 'lte':
        for (let i = 0; i < n; i++) if (!((v[i] as number) <= x)) mask[i] = 0
        return
    }
  }
}

function compareText(a: string | undefined, b: string | undefined): number {
  const x = a ?? ''
  const y = b ?? ''
  return x < y ? -1 : x > y ? 1 : 0
}
