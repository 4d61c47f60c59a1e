import type { TableDefinition } from '../../shared/config'
import { recordsQueryString } from '../../shared/filters'
import { toRecordsFilter, type TableFilter } from './tableFilter'

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
  const own = filters.filter((filter) => filter.tableId === table.id).map(toRecordsFilter)
  return `/api/${table.tabularDataUrl.replace(/^\/+/, '')}?${recordsQueryString(own, limit, offset)}`
}
