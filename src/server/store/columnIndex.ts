import { countingSort, numberRanks, textRanks } from './columnOrder'

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

/**
 * Bytes of matched row positions kept per index (LRU): results of whole filter sets (a repeated
 * query answers from it) and of single filters (a new combination starts from them).
 */
const CACHE_BYTES = 96 * 1024 * 1024

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
  /** Row marks while ordering a result (all zero between calls). */
  private scratch: Uint8Array | null = null

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
    const rows = this.matches(filters)
    const ordered = sort ? this.sorted(filters, rows, sort, offset + limit) : rows
    const page = ordered.subarray(offset, offset + limit)
    return { ids: Array.from(page, (r) => this.ids[r] as number), total: rows.length }
  }

  /**
   * The first `need` (at least) of `rows` in `sort` order. The column's order is walked only
   * until enough rows are found, and that prefix is kept (grown when a later page needs more),
   * so a page near the start costs a fraction of the dataset.
   */
  private sorted(
    filters: readonly ColumnFilter[],
    rows: Int32Array,
    sort: SortKey,
    need: number,
  ): Int32Array {
    const order = this.order(sort)
    if (rows.length === order.length) return order
    const key = `${filters.map(filterKey).sort().join('&')}|${sort.descending ? '-' : ''}${sort.field}`
    const hit = this.cached(key)
    if (hit && (hit.length >= need || hit.length === rows.length)) return hit
    const target = Math.min(rows.length, Math.max(need, 2 * (hit?.length ?? 0), 1024))
    this.scratch ??= new Uint8Array(order.length)
    const mark = this.scratch
    for (let i = 0; i < rows.length; i++) mark[rows[i] as number] = 1
    const out = new Int32Array(target)
    let k = 0
    for (let j = 0; j < order.length && k < target; j++) {
      const r = order[j] as number
      if (mark[r] === 1) out[k++] = r
    }
    for (let i = 0; i < rows.length; i++) mark[rows[i] as number] = 0
    this.remember(key, out)
    return out
  }

  /** Row positions matching the filters, in id order (cached, LRU by bytes). */
  private matches(filters: readonly ColumnFilter[]): Int32Array {
    const key = filters.map(filterKey).sort().join('&')
    const hit = this.cached(key)
    if (hit) return hit
    const rows = this.filter(filters)
    this.remember(key, rows)
    return rows
  }

  private remember(key: string, rows: Int32Array): void {
    const old = this.cache.get(key)
    if (old) this.cachedBytes -= old.byteLength
    this.cache.delete(key)
    this.cache.set(key, rows)
    this.cachedBytes += rows.byteLength
    for (const [k, v] of this.cache) {
      if (this.cachedBytes <= CACHE_BYTES || k === key) break
      this.cache.delete(k)
      this.cachedBytes -= v.byteLength
    }
  }

  private cached(key: string): Int32Array | undefined {
    const hit = this.cache.get(key)
    if (hit) {
      this.cache.delete(key)
      this.cache.set(key, hit)
    }
    return hit
  }

  /**
   * Row positions (id order) matching every filter. Starts from the smallest cached result of
   * a single filter (else computes the first filter over every row and caches it), then narrows
   * by the other filters over the survivors only: filters a user adds one by one, or a mix of
   * recurring filters, cost a pass over a fraction of the rows.
   */
  private filter(filters: readonly ColumnFilter[]): Int32Array {
    if (filters.length === 0) return identity(this.ids.length)
    let start = -1
    let rows: Int32Array | undefined
    filters.forEach((f, i) => {
      const list = this.cached(filterKey(f))
      if (list && (!rows || list.length < rows.length)) {
        rows = list
        start = i
      }
    })
    if (!rows) {
      start = 0
      rows = this.narrow(filters[0] as ColumnFilter, null)
      this.remember(filterKey(filters[0] as ColumnFilter), rows)
    }
    filters.forEach((f, i) => {
      if (i !== start) rows = this.narrow(f, rows as Int32Array)
    })
    return rows
  }

  /** Every row position ordered by a column (missing last, ties by id); built once per column. */
  private order(sort: SortKey): Int32Array {
    const key = `${sort.descending ? '-' : ''}${sort.field}`
    const have = this.orders.get(key)
    if (have) return have
    const col = this.columns.get(sort.field)
    if (!col) throw new Error(`column ${sort.field} is not indexed`)
    const { rank, count } = col.kind === 'number' ? numberRanks(col.values) : textRanks(col)
    // Ranks 0..count-1 are values (ascending), `count` is missing: flip the values for descending.
    if (sort.descending)
      for (let i = 0; i < rank.length; i++) if (rank[i] !== count) rank[i] = count - 1 - (rank[i] as number)
    const order = countingSort(rank, count + 1)
    this.orders.set(key, order)
    return order
  }

  /** Keeps the rows of `from` (all rows when null) that pass `f`, in the same order. */
  private narrow(f: ColumnFilter, from: Int32Array | null): Int32Array {
    const col = this.columns.get(f.field)
    if (!col) throw new Error(`column ${f.field} is not indexed`)
    const n = from ? from.length : this.ids.length
    const out = new Int32Array(n)
    let k = 0
    // One tight, monomorphic loop per operator (no per-row closure calls); the first filter of
    // a query reads its column straight (row i), later ones through the surviving positions.
    if (f.op === 'contains') {
      if (col.kind !== 'text') throw new Error(`column ${f.field} is numeric`)
      const needle = f.value.toLowerCase()
      const hit = new Uint8Array(col.dict.length)
      col.dict.forEach((s, c) => (hit[c] = c !== 0 && s.includes(needle) ? 1 : 0))
      const codes = col.codes
      if (!from) {
        for (let i = 0; i < n; i++) if (hit[codes[i] as number] === 1) out[k++] = i
      } else
        for (let i = 0; i < n; i++) {
          const r = from[i] as number
          if (hit[codes[r] as number] === 1) out[k++] = r
        }
      return out.slice(0, k)
    }
    if (col.kind !== 'number') throw new Error(`column ${f.field} is text`)
    const values = from ? gather(col.values, from) : col.values
    const x = f.value
    // NaN (missing) fails every comparison below, so missing values never match.
    switch (f.op) {
      case 'eq':
        for (let i = 0; i < n; i++) if (values[i] === x) out[k++] = i
        break
      case 'neq':
        for (let i = 0; i < n; i++) if ((values[i] as number) < x || (values[i] as number) > x) out[k++] = i
        break
      case 'gt':
        for (let i = 0; i < n; i++) if ((values[i] as number) > x) out[k++] = i
        break
      case 'gte':
        for (let i = 0; i < n; i++) if ((values[i] as number) >= x) out[k++] = i
        break
      case 'lt':
        for (let i = 0; i < n; i++) if ((values[i] as number) < x) out[k++] = i
        break
      case 'lte':
        for (let i = 0; i < n; i++) if ((values[i] as number) <= x) out[k++] = i
        break
    }
    // `out` holds indexes into `values`: map them back to row positions when gathered.
    if (from) for (let i = 0; i < k; i++) out[i] = from[out[i] as number] as number
    return out.slice(0, k)
  }
}

/** The values of `rows` (a compact copy, so the comparison loops read memory in order). */
function gather(values: Float64Array, rows: Int32Array): Float64Array {
  const out = new Float64Array(rows.length)
  for (let i = 0; i < rows.length; i++) out[i] = values[rows[i] as number] as number
  return out
}

function filterKey(f: ColumnFilter): string {
  return JSON.stringify([f.field, f.op, f.value])
}

function identity(n: number): Int32Array {
  const all = new Int32Array(n)
  for (let i = 0; i < n; i++) all[i] = i
  return all
}
