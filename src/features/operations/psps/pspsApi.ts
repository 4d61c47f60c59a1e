import { authFetch } from '../../session/authFetch'

export type CellValue = string | number | null

/** A column of the roll-up as the server defines it (config/operations.yaml psps.columns). */
export interface PspsColumn {
  field: string
  label: string
  formatter: string | null
  total: 'sum' | null
}

export interface PspsRow {
  id: number
  key: string
  bbox: [number, number, number, number] | null
  gust: number | null
  threshold: number | null
  gustExceedsThreshold: boolean
  values: Record<string, CellValue>
}

/** GET /api/psps/event */
export interface PspsEvent {
  window: { start: string | null; end: string | null }
  columns: PspsColumn[]
  rows: PspsRow[]
  totals: Record<string, number>
  count: number
}

const sortParam = (sort: string | null) => (sort ? `sort=${encodeURIComponent(sort)}` : '')

async function failure(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => null)) as { message?: string } | null
  return new Error(body?.message ?? `HTTP ${response.status}`)
}

export async function fetchPspsEvent(sort: string | null, signal?: AbortSignal): Promise<PspsEvent> {
  const q = sortParam(sort)
  const response = await authFetch(`/api/psps/event${q ? `?${q}` : ''}`, { signal })
  if (!response.ok) throw await failure(response)
  return (await response.json()) as PspsEvent
}

/** The CSV of the event in the given order (the rows and totals the table shows). */
export async function fetchPspsCsv(sort: string | null): Promise<string> {
  const q = sortParam(sort)
  const response = await authFetch(`/api/psps/event?format=csv${q ? `&${q}` : ''}`)
  if (!response.ok) throw await failure(response)
  return response.text()
}
