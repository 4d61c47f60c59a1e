import type { PspsEvent } from '../../shared/operations/wireTypes'
import { authFetch } from '../session'

/** An alert as GET /api/alerts lists it (the fields the briefing prints). */
export interface BriefingAlert {
  readonly id: string
  readonly ruleTitle: string
  readonly severity: string
  readonly hazard: { readonly label: string; readonly dataset: string }
  readonly assets: readonly { readonly label: string; readonly distanceMiles: number }[]
  readonly nearestMiles: number
  readonly time: string
  readonly acknowledged: boolean
}

export interface AlertsList {
  readonly alerts: readonly BriefingAlert[]
  readonly evaluatedAt: string
  readonly severities: readonly { id: string; label: string; color: string }[]
}

/** GET /api/briefing/sources: freshness of every dataset and grid, and the forecast window. */
export interface BriefingSources {
  readonly generatedAt: string
  readonly demo: boolean
  readonly window: { readonly start: string; readonly hours: number; readonly currentHour: number }
  readonly datasets: readonly {
    readonly id: string
    readonly title: string
    readonly version: number
    readonly count: number
    readonly updatedAt: string | null
    readonly newest: { readonly field: string; readonly value: string } | null
  }[]
  readonly grids: readonly {
    readonly id: string
    readonly version: string
    readonly hours: number
    readonly source: string
  }[]
}

/** A live feed's status (GET /api/feeds, when the server has live feeds), by dataset. */
export interface FeedFreshness {
  readonly dataset: string
  readonly source: string | null
  readonly lastSuccessAt: string | null
  readonly newestDataAt: string | null
  readonly lastError: string | null
}

async function getJson(url: string, signal?: AbortSignal): Promise<unknown> {
  const response = await authFetch(url, { signal })
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: string } | null
    throw Object.assign(new Error(body?.message ?? `HTTP ${response.status}`), { status: response.status })
  }
  return response.json()
}

export const fetchAlerts = (signal?: AbortSignal) => getJson('/api/alerts', signal) as Promise<AlertsList>

export const fetchSources = (signal?: AbortSignal) =>
  getJson('/api/briefing/sources', signal) as Promise<BriefingSources>

/** The next PSPS event, or null when the roll-up is not configured (404). */
export async function fetchPsps(signal?: AbortSignal): Promise<PspsEvent | null> {
  try {
    return (await getJson('/api/psps/event', signal)) as PspsEvent
  } catch (error) {
    if ((error as { status?: number }).status === 404) return null
    throw error
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

/** Feed statuses by dataset; empty when the server has no /api/feeds (or it fails): never an error. */
export async function fetchFeeds(signal?: AbortSignal): Promise<Map<string, FeedFreshness>> {
  try {
    const body = (await getJson('/api/feeds', signal)) as { feeds?: unknown } | unknown[]
    const list: unknown[] = Array.isArray(body) ? body : Array.isArray(body.feeds) ? body.feeds : []
    const out = new Map<string, FeedFreshness>()
    for (const item of list) {
      if (typeof item !== 'object' || item === null) continue
      const f = item as Record<string, unknown>
      const dataset = text(f.dataset)
      if (!dataset) continue
      out.set(dataset, {
        dataset,
        source: text(f.source),
        lastSuccessAt: text(f.lastSuccessAt),
        newestDataAt: text(f.newestDataAt),
        lastError: text(f.lastError),
      })
    }
    return out
  } catch {
    return new Map()
  }
}
