import type { PlanningRow } from '../../../shared/operations/wireTypes'
import { authFetch } from '../../session'

/** A circuit's forecast gust against its (stored or what-if) threshold at the hour. */
export type PlanningCircuit = PlanningRow

/** GET /api/planning */
export interface PlanningResult {
  hour: number
  hours: number
  validTime: string | null
  validTimes: string[]
  gustGrid: string
  gridAvailable: boolean
  considered: number
  count: number
  circuits: PlanningCircuit[]
  overrides: { key: string; threshold: number; storedThreshold: number | null }[]
}

/**
 * The query: `hour` (omit for the server's current hour), `below=true` to list the circuits under
 * their threshold too, and one `threshold.<key>` per what-if.
 */
export function planningQuery(
  hour: number | null,
  overrides: Readonly<Record<string, number>>,
  below = false,
): string {
  const params = new URLSearchParams()
  if (hour !== null) params.set('hour', String(hour))
  if (below) params.set('below', 'true')
  for (const [key, mph] of Object.entries(overrides)) params.set(`threshold.${key}`, String(mph))
  const text = params.toString()
  return text ? `?${text}` : ''
}

export async function fetchPlanning(
  hour: number | null,
  overrides: Readonly<Record<string, number>>,
  below: boolean,
  signal?: AbortSignal,
): Promise<PlanningResult> {
  const response = await authFetch(`/api/planning${planningQuery(hour, overrides, below)}`, { signal })
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null
    throw new Error(body?.message ?? `HTTP ${response.status}`)
  }
  return (await response.json()) as PlanningResult
}

/** The hour a share link carries (`?hour=N`), or null. */
export function hourFromSearch(search: string, hours: number): number | null {
  const raw = new URLSearchParams(search).get('hour')
  if (raw === null || !/^\d+$/.test(raw)) return null
  const hour = Number(raw)
  return hour < hours ? hour : null
}

/** The query string with `hour` set (other parameters kept), for the address bar. */
export function searchWithHour(search: string, hour: number): string {
  const params = new URLSearchParams(search)
  params.set('hour', String(hour))
  return `?${params.toString().replaceAll('%2C', ',').replaceAll('%3A', ':')}`
}
