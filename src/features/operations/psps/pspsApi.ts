import { authFetch } from '../../session'

import type { CellValue, PspsColumn, PspsEvent, PspsRow } from '../../../shared/operations/wireTypes'

export type { CellValue, PspsColumn, PspsEvent, PspsRow }

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
