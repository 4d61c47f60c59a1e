import type { FeatureCollection } from 'geojson'
import { authFetch } from '../../session'

/** The JSON of GET /api/alerts (src/server/operations/alertsRoutes.ts). */
export type Bbox = [number, number, number, number]

export interface AlertAssetInfo {
  dataset: string
  id: number
  label: string
  distanceMiles: number
}

export interface AlertInfo {
  id: string
  ruleId: string
  ruleTitle: string
  severity: string
  hazard: { dataset: string; id: number; label: string; time: string | null }
  assets: AlertAssetInfo[]
  nearestMiles: number
  time: string
  bbox: Bbox
  acknowledged: boolean
  acknowledgedAt: string | null
}

export interface AlertRuleInfo {
  id: string
  title: string
  severity: string
  count: number
}

export interface AlertSeverityInfo {
  id: string
  label: string
  /** '#rrggbb[aa]' (resolved from config/theme.yaml by the server). */
  color: string
}

export interface AlertList {
  alerts: AlertInfo[]
  evaluatedAt: string
  rules: AlertRuleInfo[]
  severities: AlertSeverityInfo[]
}

export interface AlertFilters {
  /** Rule id, or null for every rule. */
  rule: string | null
  /** Severity id, or null for every severity. */
  severity: string | null
}

/** A non-2xx answer with the server's message. */
export class AlertsApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

async function json<T>(response: Response): Promise<T> {
  const body: unknown = await response.json().catch(() => null)
  if (!response.ok) {
    const message =
      body && typeof body === 'object' && 'message' in body ? String(body.message) : `HTTP ${response.status}`
    throw new AlertsApiError(response.status, message)
  }
  return body as T
}

export function alertsUrl(filters: AlertFilters): string {
  const q = new URLSearchParams()
  if (filters.rule) q.set('rule', filters.rule)
  if (filters.severity) q.set('severity', filters.severity)
  const s = q.toString()
  return s ? `/api/alerts?${s}` : '/api/alerts'
}

export async function fetchAlerts(filters: AlertFilters, signal?: AbortSignal): Promise<AlertList> {
  return json<AlertList>(await authFetch(alertsUrl(filters), { signal }))
}

export async function fetchAlertGeometry(id: string): Promise<FeatureCollection> {
  return json<FeatureCollection>(await authFetch(`/api/alerts/${encodeURIComponent(id)}/geometry`))
}

/** Acknowledges (or un-acknowledges) an alert for the signed-in member. */
export async function setAcknowledged(
  id: string,
  acknowledged: boolean,
): Promise<{ acknowledged: boolean; acknowledgedAt: string | null }> {
  const response = await authFetch(`/api/alerts/${encodeURIComponent(id)}/ack`, {
    method: acknowledged ? 'POST' : 'DELETE',
    body: '{}',
  })
  return json(response)
}
