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
    const tests = filters.map((f) => this.predicate(f))
    const n = this.ids.length
    const out: number[] = []
    let total = 0
    outer: for (let i = 0; i < n; i++) {
      for (let t = 0; t < tests.length; t++) if (!(tests[t] as (i: number) => boolean)(i)) continue outer
      if (total >= offset && out.length < limit) out.push(this.ids[i] as number)
      total += 1
    }
    return { ids: out, total }
  }

  private predicate(f: ColumnFilter): (i: number) => boolean {
    const col = this.columns.get(f.field)
    if (!col) throw new Error(`column ${f.field} is not indexed`)
    if (f.op === 'contains') {
      if (col.kind !== 'text') throw new Error(`column ${f.field} is numeric`)
      const needle = f.value.toLowerCase()
      const hit = new Uint8Array(col.dict.length)
      col.dict.forEach((s, c) => (hit[c] = s.includes(needle) ? 1 : 0))
      const codes = col.codes
      return (i) => hit[codes[i] as number] === 1
    }
    if (col.kind !== 'number') throw new Error(`column ${f.field} is text`)
    const v = col.values
    const x = f.value
    switch (f.op) {
      case 'eq':
        return (i) => v[i] === x
      case 'neq':
        return (i) => v[i] !== x && !Number.isNaN(v[i])
      case 'gt':
        return (i) => (v[i] as number) > x
      case 'gte':
        return (i) => (v[i] as number) >= x
      case 'lt':
        return (i) => (v[i] as number) < x
      case 'lte':
        return (i) => (v[i] as number) <= x
    }
  }
}
