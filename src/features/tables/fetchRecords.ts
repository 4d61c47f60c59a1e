import { authFetch } from '../session'

export type TableRecord = Readonly<Record<string, unknown>>

export interface RecordsPage {
  records: TableRecord[]
  total: number
}

function isRecord(value: unknown): value is TableRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Reads `{ records, total }` from the data API; throws with the server's message on failure. */
export async function fetchRecords(url: string, signal?: AbortSignal): Promise<RecordsPage> {
  const response = await authFetch(url, { signal })
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const message = isRecord(body) && typeof body.message === 'string' ? body.message : response.statusText
    throw new Error(`${response.status} ${message}`.trim())
  }
  if (!isRecord(body) || !Array.isArray(body.records))
    throw new Error('The data API answered without records')
  const records = body.records.filter(isRecord)
  const total = typeof body.total === 'number' && Number.isFinite(body.total) ? body.total : records.length
  return { records, total }
}
