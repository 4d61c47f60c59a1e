import { formatPlain } from '../../shared/format'
import { fetchRecords, type TableRecord } from './fetchRecords'
import { recordsUrl } from './recordsRequest'
import type { TableDefinition } from '../../shared/config'
import type { TableFilter } from './tableFilter'
import { toCsv } from './toCsv'

export type FetchPage = (url: string) => Promise<{ records: TableRecord[]; total: number }>

/**
 * Every record matching a table's filters, paged through the data API `pageSize` at a time
 * (appConfig.tables.maxLimit) until the reported total is reached or a page comes back short.
 */
export async function fetchAllRecords(
  table: TableDefinition,
  filters: readonly TableFilter[],
  pageSize: number,
  fetchPage: FetchPage = fetchRecords,
): Promise<TableRecord[]> {
  const all: TableRecord[] = []
  for (;;) {
    const { records, total } = await fetchPage(recordsUrl(table, filters, pageSize, all.length))
    all.push(...records)
    if (records.length < pageSize || all.length >= total) return all
  }
}

/** CSV of records under the table's column keys; raw values, so numbers keep full precision. */
export function recordsToCsv(table: TableDefinition, records: readonly TableRecord[]): string {
  const columns = table.columns.filter((c, i, list) => list.findIndex((o) => o.key === c.key) === i)
  return toCsv(
    columns.map((c) => c.key),
    records.map((record) => columns.map((c) => formatPlain(record[c.key]))),
  )
}

/** Downloads a CSV file in the browser. */
export function downloadCsv(fileName: string, csv: string): void {
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
