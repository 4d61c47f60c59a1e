import type { TableDefinition } from './tableDefinitions'
import { encodeFilter, type TableFilter } from './tableFilter'

/** Offset of a one-based page (spec §5). */
export function pageOffset(page: number, itemsPerPage: number): number {
  return (page - 1) * itemsPerPage
}

/** Number of pages for a total, at least one. */
export function pageCount(total: number | null, itemsPerPage: number): number {
  if (total === null || total <= 0) return 1
  return Math.ceil(total / itemsPerPage)
}

/**
 * GET URL of a table's records (spec §7): one repeated `filters` parameter per filter of that table
 * (a JSON object), then `limit` and `offset`.
 */
export function recordsUrl(
  table: Pick<TableDefinition, 'id' | 'tabularDataUrl'>,
  filters: readonly TableFilter[],
  limit: number,
  offset: number,
): string {
  const params = new URLSearchParams()
  for (const filter of filters) {
    if (filter.tableId === table.id) params.append('filters', JSON.stringify(encodeFilter(filter)))
  }
  params.set('limit', String(limit))
  params.set('offset', String(offset))
  return `/api/${table.tabularDataUrl.replace(/^\/+/, '')}?${params.toString()}`
}
