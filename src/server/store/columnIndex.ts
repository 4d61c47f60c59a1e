import type Database from 'better-sqlite3'
import type { FieldDef } from './catalog'
import { fieldColumn, tableNames } from './datasetTables'

export type NumericOp = 'eq' | 'neq' | 'gt' | 'gte' | 'lt' | 'lte'

/** A validated filter: numeric comparison, or case-insensitive 'contains' on text. */
export type ColumnFilter =
  { field: string; op: NumericOp; value: number } | { field: string; op: 'contains'; value: string }

type Column = { kind: 'number'; values: Float64Array } | { kind: 'text'; codes: Uint32Array; dict: string[] }

/**
 * The filterable columns of one dataset held in typed arrays (row order = id order), so any
 * combination of filters is one linear pass that yields both the page and the total.
 * 1,000,000 rows × 2 filters take a few milliseconds; building it reads the columns once.
 */
export class ColumnIndex {
  private constructor(
    readonly ids: Int32Array,
    private readonly columns: Map<string, Column>,
  ) {}

  static build(db: Database.Database, datasetId: string, fields: readonly FieldDef[]): ColumnIndex {
    const { features } = tableNames(datasetId)
    const count = Number(db.prepare(`SELECT count(*) FROM ${features}`).pluck().get())
    const ids = new Int32Array(count)
    const numeric: Float64Array[] = []
    const text: { codes: Uint32Array; dict: string[]; lookup: Map<string, number> }[] = []
    const slots = fields.map((f) => {
      if (f.type === 'number') {
        numeric.push(new Float64Array(count))
        return { kind: 'number' as const, i: numeric.length - 1 }
      }
      text.push({ codes: new Uint32Array(count), dict: [], lookup: new Map() })
      return { kind: 'text' as const, i: text.length - 1 }
    })
    const cols = fields.map((f) => fieldColumn(f.name))
    const sql = `SELECT id${cols.map((c) => ', ' + c).join('')} FROM ${features} ORDER BY id`
    let r = 0
    for (const row of db.prepare(sql).raw().iterate() as Iterable<unknown[]>) {
      ids[r] = Number(row[0])
      slots.forEach((s, j) => {
        const v = row[j + 1]
        if (s.kind === 'number') (numeric[s.i] as Float64Array)[r] = typeof v === 'number' ? v : NaN
        else {
          const t = text[s.i] as (typeof text)[number]
          const key = v === null || v === undefined ? '' : String(v).toLowerCase()
          let code = t.lookup.get(key)
          if (code === undefined) {
            code = t.dict.length
            t.dict.push(key)
            t.lookup.set(key, code)
          }
          t.codes[r] = code
        }
      })
      r += 1
    }
    const columns = new Map<string, Column>()
    fields.forEach((f, j) => {
      const s = slots[j] as (typeof slots)[number]
      if (s.kind === 'number') columns.set(f.name, { kind: 'number', values: numeric[s.i] as Float64Array })
      else {
        const t = text[s.i] as (typeof text)[number]
        columns.set(f.name, { kind: 'text', codes: t.codes, dict: t.dict })
      }
    })
    return new ColumnIndex(ids.subarray(0, r), columns)
  }

  /** Ids of rows [offset, offset+limit) among those matching every filter, and how many match. */
  query(filters: readonly ColumnFilter[], limit: number, offset: number): { ids: number[]; total: number } {
    const n = this.ids.length
    // One tight, monomorphic loop per filter narrowing a match mask, then one pass for page + total.
    const mask = new Uint8Array(n).fill(1)
    for (const f of filters) this.narrow(f, mask)
    const out: number[] = []
    let total = 0
    for (let i = 0; i < n; i++) {
      if (mask[i] === 0) continue
      if (total >= offset && out.length < limit) out.push(this.ids[i] as number)
      total += 1
    }
    return { ids: out, total }
  }

  private narrow(f: ColumnFilter, mask: Uint8Array): void {
    const col = this.columns.get(f.field)
    if (!col) throw new Error(`column ${f.field} is not indexed`)
    const n = mask.length
    if (f.op === 'contains') {
      if (col.kind !== 'text') throw new Error(`column ${f.field} is numeric`)
      const needle = f.value.toLowerCase()
      const hit = new Uint8Array(col.dict.length)
      col.dict.forEach((s, c) => (hit[c] = s.includes(needle) ? 1 : 0))
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
