import { recordsQueryString } from '../../shared/filters'
import { authFetch } from '../session'
import { toRecordsFilter, type TableFilter } from './tableFilter'

export type GisFormat = 'geojson' | 'gpkg'

/** The export URL of a table's dataset with the table's filters (records API filters). */
export function exportUrl(
  dataset: string,
  tableId: string,
  filters: readonly TableFilter[],
  format: GisFormat,
): string {
  const own = filters.filter((f) => f.tableId === tableId).map(toRecordsFilter)
  const query = recordsQueryString(own)
  return `/api/export/${dataset}?format=${format}${query ? `&${query}` : ''}`
}

/** Downloads the filtered rows with geometry as <table id>.geojson or .gpkg (throws with the server's message). */
export async function downloadGisFile(
  dataset: string,
  tableId: string,
  filters: readonly TableFilter[],
  format: GisFormat,
): Promise<void> {
  const response = await authFetch(exportUrl(dataset, tableId, filters, format))
  if (!response.ok) {
    const body: unknown = await response.json().catch(() => null)
    const message =
      typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : response.statusText
    throw new Error(`${response.status} ${message}`.trim())
  }
  const blob = await response.blob()
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = `${tableId}.${format}`
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
