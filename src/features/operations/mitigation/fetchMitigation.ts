import { authFetch } from '../../session'
import { MitigationApiError, type CircuitGeometry, type MitigationRanking } from './mitigationApi'

/** The ranking URL: no query for the config defaults, else one `weight.<id>` per factor. */
export function rankingUrl(weights: Readonly<Record<string, number>> | null): string {
  if (!weights) return '/api/mitigation'
  const query = new URLSearchParams()
  for (const [id, w] of Object.entries(weights)) query.set(`weight.${id}`, String(w))
  return `/api/mitigation?${query.toString()}`
}

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
  const res = await authFetch(url, { signal })
  const body: unknown = await res.json().catch(() => null)
  if (!res.ok) {
    const b = (body ?? {}) as { message?: unknown; parameter?: unknown }
    const message = typeof b.message === 'string' ? b.message : `${res.status} ${res.statusText}`
    throw new MitigationApiError(res.status, message, typeof b.parameter === 'string' ? b.parameter : null)
  }
  return body as T
}

/** GET a ranking URL made by rankingUrl(). */
export function fetchRanking(url: string, signal?: AbortSignal): Promise<MitigationRanking> {
  return getJson<MitigationRanking>(url, signal)
}

export function fetchCircuit(id: number, signal?: AbortSignal): Promise<CircuitGeometry> {
  return getJson<CircuitGeometry>(`/api/mitigation/circuits/${id}`, signal)
}
