import type { TableFilter } from './tableFilter'

const CQL2_OPERATORS = { eq: '=', neq: '<>', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const

/** A CQL2 text string literal ('' doubles a quote). */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`
}

/**
 * One table filter as CQL2 text, with the records API's meaning: numeric comparisons, and
 * `LIKE '%text%'` for the case-insensitive 'contains' of text columns (% _ \ escaped).
 */
export function filterToCql2(filter: TableFilter): string {
  if (filter.columnType === 'number' && filter.operator !== 'contains') {
    return `${filter.field} ${CQL2_OPERATORS[filter.operator]} ${Number(filter.value)}`
  }
  const escaped = String(filter.value).replace(/[\\%_]/g, (c) => `\\${c}`)
  return `${filter.field} LIKE ${literal(`%${escaped}%`)}`
}

/** The table's filters joined by AND as a CQL2 text filter ('' when there are none). */
export function filtersToCql2(filters: readonly TableFilter[]): string {
  return filters.map(filterToCql2).join(' AND ')
}

/**
 * The OGC API – Features items URL of a table's dataset with the table's current filters
 * (`/ogc/collections/<dataset>/items?filter=…&filter-lang=cql2-text`), absolute on `origin`.
 */
export function ogcItemsUrl(
  origin: string,
  dataset: string,
  tableId: string,
  filters: readonly TableFilter[],
): string {
  const own = filters.filter((f) => f.tableId === tableId)
  const base = `${origin}/ogc/collections/${dataset}/items`
  if (own.length === 0) return base
  const params = new URLSearchParams({ filter: filtersToCql2(own), 'filter-lang': 'cql2-text' })
  return `${base}?${params.toString()}`
}
