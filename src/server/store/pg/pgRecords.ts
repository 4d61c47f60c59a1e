import type { Catalog, DatasetDef } from '../catalog'
import { filterableFields } from '../catalog'
import type { ColumnFilter, ColumnIndex, SortKey } from '../columnIndex'
import { ColumnIndexBuilder, columnIndexFromRows, type ColumnIndexRow } from '../columnIndexStore'
import { recordOf } from '../datasetRecords'
import { fieldColumn, tableNames } from '../datasetTables'
import type { DatasetInfo, RecordRow, RecordsPage } from '../Store'
import type { PgDatabase } from './pgDatabase'
import { persistPgColumnIndex } from './pgWriteDataset'

interface IndexState {
  version: number
  index: Promise<ColumnIndex>
}

/**
 * The records API over PostgreSQL with exactly the SQLite store's answers: filtering, sorting,
 * paging and totals run over the same in-memory column index (columnIndex.ts), loaded from the
 * copy persisted at import or — when that is missing or the table config changed — built from
 * one read of the filterable columns and then persisted. A page's rows are read by id.
 */
export class PgRecords {
  private readonly states = new Map<string, IndexState>()

  constructor(
    private readonly db: PgDatabase,
    private readonly catalog: Catalog,
    private readonly info: (id: string) => DatasetInfo | Promise<DatasetInfo>,
  ) {}

  private fields(id: string) {
    return [...filterableFields(this.catalog, id).values()]
  }

  /** Forgets the index of a dataset (replaced here or through another server). */
  invalidate(id: string): void {
    this.states.delete(id)
  }

  /** The column index of the dataset's current version (loaded or built once per version). */
  async index(id: string): Promise<ColumnIndex> {
    const { version } = await this.info(id)
    const have = this.states.get(id)
    if (have && have.version === version) return have.index
    const state: IndexState = { version, index: this.loadOrBuild(id, version) }
    this.states.set(id, state)
    state.index.catch(() => {
      if (this.states.get(id) === state) this.states.delete(id)
    })
    return state.index
  }

  private async loadOrBuild(id: string, version: number): Promise<ColumnIndex> {
    const fields = this.fields(id)
    const rows = await this.db.query<ColumnIndexRow>(
      'SELECT field, kind, data, dict FROM column_index WHERE dataset = $1 AND version = $2',
      [id, version],
    )
    const loaded = columnIndexFromRows(rows, fields)
    if (loaded) return loaded
    const builder = new ColumnIndexBuilder(fields)
    const cols = fields.map((f) => ', ' + fieldColumn(f.name)).join('')
    for (const row of await this.db.rows(`SELECT id${cols} FROM ${tableNames(id).features} ORDER BY id`))
      builder.add(Number(row[0]), row.slice(1))
    const index = builder.build()
    // Kept for the next start unless the dataset changed meanwhile (best effort).
    await this.db
      .tx(async () => {
        const now = await this.db.one<{ version: number }>(
          'SELECT version FROM datasets WHERE id = $1 FOR UPDATE',
          [id],
        )
        if (now?.version === version) await persistPgColumnIndex(this.db, id, version, index, fields)
      })
      .catch(() => undefined)
    return index
  }

  async records(
    d: DatasetDef,
    filters: readonly ColumnFilter[],
    limit: number,
    offset: number,
    sort?: SortKey,
  ): Promise<RecordsPage> {
    // Every page goes through the column index, unfiltered ones too: its id list pages in
    // O(limit), where ORDER BY id LIMIT … OFFSET … walks the offset's rows in the database (a
    // page at offset 99,900 of 1,000,000 buildings: 6 ms there against 0.2 ms read by id).
    const hit = (await this.index(d.id)).query(filters, limit, offset, sort)
    return { records: await this.byIds(d, hit.ids), total: hit.total }
  }

  /** The rows of `ids`, in the order of `ids`. */
  private async byIds(d: DatasetDef, ids: readonly number[]): Promise<RecordRow[]> {
    if (ids.length === 0) return []
    const rows = await this.db.rows(
      `${selectColumns(d)} FROM ${tableNames(d.id).features} WHERE id = ANY($1::integer[])`,
      [ids],
    )
    const byId = new Map<number, unknown[]>()
    for (const row of rows) byId.set(Number(row[0]), row)
    return ids.flatMap((id) => {
      const row = byId.get(id)
      return row ? [recordOf(d, row)] : []
    })
  }
}

function selectColumns(d: DatasetDef): string {
  return `SELECT id, minx, miny, maxx, maxy${d.fields.map((f) => ', ' + fieldColumn(f.name)).join('')}`
}
