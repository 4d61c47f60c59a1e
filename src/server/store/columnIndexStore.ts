import type Database from 'better-sqlite3'
import type { FieldDef } from './catalog'
import { ColumnIndex, type Column } from './columnIndex'
import { fieldColumn, tableNames } from './datasetTables'

/** Collects the filterable columns row by row (import, or a scan of the table) into typed arrays. */
export class ColumnIndexBuilder {
  private readonly ids: number[] = []
  private readonly numbers: number[][]
  private readonly texts: { codes: number[]; dict: string[]; lookup: Map<string, number> }[]

  constructor(readonly fields: readonly FieldDef[]) {
    this.numbers = fields.map(() => [])
    this.texts = fields.map(() => ({ codes: [], dict: [''], lookup: new Map() }))
  }

  get count(): number {
    return this.ids.length
  }

  /** Adds one row: `values[j]` is the value of `fields[j]` (null when missing). */
  add(id: number, values: readonly unknown[]): void {
    this.ids.push(id)
    for (let j = 0; j < this.fields.length; j++) {
      const v = values[j]
      if ((this.fields[j] as FieldDef).type === 'number') {
        ;(this.numbers[j] as number[]).push(typeof v === 'number' ? v : NaN)
        continue
      }
      const t = this.texts[j] as (typeof this.texts)[number]
      if (v === null || v === undefined || v === '') {
        t.codes.push(0)
        continue
      }
      const key = String(v).toLowerCase()
      let code = t.lookup.get(key)
      if (code === undefined) {
        code = t.dict.length
        t.dict.push(key)
        t.lookup.set(key, code)
      }
      t.codes.push(code)
    }
  }

  build(): ColumnIndex {
    const columns = new Map<string, Column>()
    this.fields.forEach((f, j) => {
      const t = this.texts[j] as (typeof this.texts)[number]
      columns.set(
        f.name,
        f.type === 'number'
          ? { kind: 'number', values: Float64Array.from(this.numbers[j] as number[]) }
          : { kind: 'text', codes: Uint32Array.from(t.codes), dict: t.dict },
      )
    })
    return new ColumnIndex(Int32Array.from(this.ids), columns)
  }
}

const IDS = ''

const bytes = (a: Int32Array | Float64Array | Uint32Array): Buffer =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength)

/** One stored row of a persisted column index ('' = the row ids). */
export interface ColumnIndexRow {
  field: string
  kind: string
  data: Buffer
  dict: string | null
}

/** The rows a column index is persisted as (both stores' `column_index` tables). */
export function columnIndexRows(index: ColumnIndex, fields: readonly FieldDef[]): ColumnIndexRow[] {
  const rows: ColumnIndexRow[] = [{ field: IDS, kind: 'ids', data: bytes(index.ids), dict: null }]
  for (const f of fields) {
    const col = index.column(f.name)
    if (!col) continue
    if (col.kind === 'number')
      rows.push({ field: f.name, kind: 'number', data: bytes(col.values), dict: null })
    else rows.push({ field: f.name, kind: 'text', data: bytes(col.codes), dict: JSON.stringify(col.dict) })
  }
  return rows
}

/** Writes a column index for `version` of a dataset (replacing any previous one). */
export function persistColumnIndex(
  db: Database.Database,
  datasetId: string,
  version: number,
  index: ColumnIndex,
  fields: readonly FieldDef[],
): void {
  db.prepare('DELETE FROM column_index WHERE dataset = ?').run(datasetId)
  const put = db.prepare(
    'INSERT INTO column_index (dataset, field, version, kind, data, dict) VALUES (?, ?, ?, ?, ?, ?)',
  )
  for (const r of columnIndexRows(index, fields)) put.run(datasetId, r.field, version, r.kind, r.data, r.dict)
}

/** A typed array over a blob (copied when the blob is not aligned for the element size). */
function view<T>(blob: Buffer, size: number, make: (b: ArrayBuffer, offset: number, length: number) => T): T {
  const aligned = blob.byteOffset % size === 0 ? blob : Buffer.from(blob)
  return make(aligned.buffer as ArrayBuffer, aligned.byteOffset, aligned.byteLength / size)
}

/**
 * The persisted column index of `version` of a dataset, or null when it is missing, stale or
 * lacks one of `fields` (the table config changed since the import).
 */
export function loadColumnIndex(
  db: Database.Database,
  datasetId: string,
  version: number,
  fields: readonly FieldDef[],
): ColumnIndex | null {
  const rows = db
    .prepare('SELECT field, kind, data, dict FROM column_index WHERE dataset = ? AND version = ?')
    .all(datasetId, version) as ColumnIndexRow[]
  return columnIndexFromRows(rows, fields)
}

/** A column index from its persisted rows; null when one of `fields` is missing or a row is unreadable. */
export function columnIndexFromRows(
  rows: readonly ColumnIndexRow[],
  fields: readonly FieldDef[],
): ColumnIndex | null {
  const byField = new Map(rows.map((r) => [r.field, r]))
  const idRow = byField.get(IDS)
  if (!idRow) return null
  if (idRow.data.byteLength % 4 !== 0) return null
  const ids = view(idRow.data, 4, (b, o, n) => new Int32Array(b, o, n))
  const columns = new Map<string, Column>()
  for (const f of fields) {
    const r = byField.get(f.name)
    const kind = f.type === 'number' ? 'number' : 'text'
    if (!r || r.kind !== kind) return null
    // A blob of the wrong size (or an unreadable dictionary) means "not there": rebuild it.
    if (r.data.byteLength !== ids.length * (kind === 'number' ? 8 : 4)) return null
    if (kind === 'number')
      columns.set(f.name, { kind, values: view(r.data, 8, (b, o, n) => new Float64Array(b, o, n)) })
    else {
      let dict: unknown
      try {
        dict = JSON.parse(r.dict ?? '')
      } catch {
        return null
      }
      if (!Array.isArray(dict) || dict.length === 0) return null
      const size = dict.length
      const codes = view(r.data, 4, (b, o, n) => new Uint32Array(b, o, n))
      let max = 0
      for (let i = 0; i < codes.length; i++) if ((codes[i] as number) > max) max = codes[i] as number
      if (max >= size) return null
      columns.set(f.name, { kind: 'text', codes, dict: dict.map(String) })
    }
  }
  return new ColumnIndex(ids, columns)
}

/**
 * Builds a column index from the table in chunks of `chunkRows` rows (keyset by id), so the
 * caller can yield to the event loop between chunks. `step()` returns true when done.
 */
export class ChunkedColumnScan {
  private lastId = 0
  private readonly builder: ColumnIndexBuilder
  private readonly select: Database.Statement

  constructor(
    db: Database.Database,
    datasetId: string,
    fields: readonly FieldDef[],
    private readonly chunkRows = 50_000,
  ) {
    const { features } = tableNames(datasetId)
    this.builder = new ColumnIndexBuilder(fields)
    const cols = fields.map((f) => ', ' + fieldColumn(f.name)).join('')
    this.select = db.prepare(`SELECT id${cols} FROM ${features} WHERE id > ? ORDER BY id LIMIT ?`).raw()
  }

  step(): boolean {
    const rows = this.select.all(this.lastId, this.chunkRows) as unknown[][]
    for (const row of rows) this.builder.add(Number(row[0]), row.slice(1))
    if (rows.length > 0) this.lastId = Number((rows[rows.length - 1] as unknown[])[0])
    return rows.length < this.chunkRows
  }

  result(): ColumnIndex {
    return this.builder.build()
  }
}
