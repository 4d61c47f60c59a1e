import type Database from 'better-sqlite3'
import type { Catalog, DatasetDef } from './catalog'
import { filterableFields } from './catalog'
import type { ColumnFilter, ColumnIndex, SortKey } from './columnIndex'
import { ChunkedColumnScan, loadColumnIndex, persistColumnIndex } from './columnIndexStore'
import { fieldColumn, tableNames } from './datasetTables'
import type { RecordRow, RecordsPage } from './Store'

const round6 = (v: number): number => Math.round(v * 1e6) / 1e6

const SQL_OP = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const

/** Statement sizes for reading a page by id (a page is padded up to the next one). */
const IN_SIZES = [16, 128, 1024]

/** Rows scanned per event-loop turn when an index has to be built from the table. */
const SCAN_CHUNK = 50_000

interface IndexState {
  version: number
  index: ColumnIndex | null
  building: boolean
}

/**
 * The records API over SQLite. Filtering and sorting use the dataset's column index: loaded
 * from the copy persisted at import (milliseconds), or — for a store written before that, or
 * after the table config changed — built from the table in chunks between requests and then
 * persisted. Until it is ready, the same query runs as SQL (slower, same answer), so no
 * request ever waits for an index build.
 */
export class DatasetRecords {
  private readonly states = new Map<string, IndexState>()
  private readonly selects = new Map<string, Database.Statement>()

  constructor(
    private readonly db: Database.Database,
    private readonly catalog: Catalog,
    private readonly info: (id: string) => { version: number; count: number },
    private readonly scanChunk = SCAN_CHUNK,
  ) {
    db.function('eb_contains', { deterministic: true }, (value: unknown, needle: unknown) =>
      value === null || value === ''
        ? 0
        : String(value).toLowerCase().includes(String(needle).toLowerCase())
          ? 1
          : 0,
    )
    db.function('eb_lower', { deterministic: true }, (value: unknown) =>
      value === null ? null : String(value).toLowerCase(),
    )
  }

  private fields(id: string) {
    return [...filterableFields(this.catalog, id).values()]
  }

  /** Forgets the index of a dataset (after a replace in this process). */
  invalidate(id: string): void {
    this.states.delete(id)
  }

  /** The column index of the dataset's current version, or null while it is being built. */
  index(id: string): ColumnIndex | null {
    const version = this.info(id).version
    const have = this.states.get(id)
    if (have && have.version === version && (have.index || have.building)) return have.index
    const loaded = loadColumnIndex(this.db, id, version, this.fields(id))
    if (loaded) {
      this.states.set(id, { version, index: loaded, building: false })
      return loaded
    }
    const state: IndexState = { version, index: null, building: true }
    this.states.set(id, state)
    const scan = new ChunkedColumnScan(this.db, id, this.fields(id), this.scanChunk)
    const finish = (): void => {
      state.building = false
      if (this.states.get(id) !== state || this.info(id).version !== version) return
      state.index = scan.result()
      this.persist(id, version, state.index)
    }
    // A small table is built at once; a large one a chunk per event-loop turn.
    if (scan.step()) {
      finish()
      return state.index
    }
    const next = (): void => {
      try {
        if (!this.db.open || this.states.get(id) !== state) return
        if (scan.step()) finish()
        else setImmediate(next)
      } catch {
        if (this.states.get(id) === state) this.states.delete(id)
      }
    }
    setImmediate(next)
    return null
  }

  /** Stores a built index for the next start; skipped when another writer holds the lock. */
  private persist(id: string, version: number, index: ColumnIndex): void {
    const timeout = Number(this.db.pragma('busy_timeout', { simple: true }))
    try {
      this.db.pragma('busy_timeout = 0')
      this.db.transaction(() => persistColumnIndex(this.db, id, version, index, this.fields(id)))()
    } catch {
      // Busy or read-only: the index stays in memory and is rebuilt on the next start.
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`)
    }
  }

  records(
    d: DatasetDef,
    filters: readonly ColumnFilter[],
    limit: number,
    offset: number,
    sort?: SortKey,
  ): RecordsPage {
    const { features } = tableNames(d.id)
    if (filters.length === 0 && !sort) {
      const rows = this.db
        .prepare(`${this.selectColumns(d)} FROM ${features} ORDER BY id LIMIT ? OFFSET ?`)
        .raw()
        .all(limit, offset) as unknown[][]
      return { records: rows.map((row) => recordOf(d, row)), total: this.info(d.id).count }
    }
    const index = this.index(d.id)
    if (!index) return this.bySql(d, filters, limit, offset, sort)
    const hit = index.query(filters, limit, offset, sort)
    return { records: this.byIds(d, hit.ids), total: hit.total }
  }

  private selectColumns(d: DatasetDef): string {
    return `SELECT id, minx, miny, maxx, maxy${d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')}`
  }

  /** The rows of `ids`, in the order of `ids` (one cached `IN (?, …)` statement per size class). */
  private byIds(d: DatasetDef, ids: readonly number[]): RecordRow[] {
    if (ids.length === 0) return []
    const size = IN_SIZES.find((n) => n >= ids.length) ?? ids.length
    const key = `${d.id}:${size}`
    let select = this.selects.get(key)
    if (!select) {
      const slots = Array.from({ length: size }, () => '?').join(', ')
      select = this.db
        .prepare(`${this.selectColumns(d)} FROM ${tableNames(d.id).features} WHERE id IN (${slots})`)
        .raw()
      this.selects.set(key, select)
    }
    // Pad with the last id (IN ignores the repeats).
    const params =
      ids.length === size
        ? ids
        : [...ids, ...Array<number>(size - ids.length).fill(ids[ids.length - 1] as number)]
    const byId = new Map<number, unknown[]>()
    for (const row of select.all(params) as unknown[][]) byId.set(Number(row[0]), row)
    return ids.flatMap((id) => {
      const row = byId.get(id)
      return row ? [recordOf(d, row)] : []
    })
  }

  /** The same query as SQL: used only while the column index is being built. */
  private bySql(
    d: DatasetDef,
    filters: readonly ColumnFilter[],
    limit: number,
    offset: number,
    sort?: SortKey,
  ): RecordsPage {
    const { features } = tableNames(d.id)
    const where = filters.map((f) =>
      f.op === 'contains'
        ? `eb_contains(${fieldColumn(f.field)}, ?) = 1`
        : `${fieldColumn(f.field)} ${SQL_OP[f.op]} ?`,
    )
    const params = filters.map((f) => f.value)
    const clause = where.length ? ` WHERE ${where.join(' AND ')}` : ''
    let order = 'id'
    if (sort) {
      const def = d.fields.find((f) => f.name === sort.field)
      const col = fieldColumn(sort.field)
      const expr = def?.type === 'number' ? col : `eb_lower(${col})`
      order = `(${col} IS NULL), ${expr} ${sort.descending ? 'DESC' : 'ASC'}, id`
    }
    const total = Number(
      this.db
        .prepare(`SELECT count(*) FROM ${features}${clause}`)
        .pluck()
        .get(...params),
    )
    const rows = this.db
      .prepare(`${this.selectColumns(d)} FROM ${features}${clause} ORDER BY ${order} LIMIT ? OFFSET ?`)
      .raw()
      .all(...params, limit, offset) as unknown[][]
    return { records: rows.map((row) => recordOf(d, row)), total }
  }
}

/** A row `id, minx, miny, maxx, maxy, <fields…>` as the records API answers it (both stores). */
export function recordOf(d: DatasetDef, row: unknown[]): RecordRow {
  const rec: RecordRow = { id: Number(row[0]) }
  d.fields.forEach((f, i) => {
    const v = row[i + 5]
    rec[f.name] = typeof v === 'number' || typeof v === 'string' ? v : null
  })
  // A record kept without geometry (zone-only alert) has no bbox: `null`.
  rec.bbox = row[1] === null ? null : [row[1], row[2], row[3], row[4]].map((v) => round6(Number(v)))
  return rec
}
