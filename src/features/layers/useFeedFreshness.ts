import { useSyncExternalStore } from 'react'
import { authFetch } from '../session'
import type { FeedFreshness } from './feedFreshness'

const REFRESH_MS = 60_000
/** One answer of GET /api/feeds and the client clock when it arrived. */
export interface FeedFreshnessSnapshot {
  readonly feeds: readonly FeedFreshness[]
  /** Every dataset's version (a feed run or an import bumps it); open attribute tables watch it. */
  readonly versions: Readonly<Record<string, number>>
  readonly at: number
}

/** The last answer (ages are measured from its arrival, refreshed each minute). */
let snapshot: FeedFreshnessSnapshot = { feeds: [], versions: {}, at: 0 }
let timer: ReturnType<typeof setInterval> | null = null
const listeners = new Set<() => void>()

async function load(): Promise<void> {
  try {
    const response = await authFetch('/api/feeds')
    if (!response.ok) return
    const body = (await response.json()) as { feeds?: FeedFreshness[]; versions?: Record<string, number> }
    snapshot = { feeds: body.feeds ?? [], versions: body.versions ?? {}, at: Date.now() }
    for (const l of listeners) l()
  } catch {
    // Freshness is informative: a failed refresh keeps the last answer.
  }
}

/**
 * Listens to GET /api/feeds, fetched at once for the first listener and then each minute while any
 * listens (the sidebar badges and open attribute tables share this one poll); returns the unsubscribe.
 */
export function subscribeFeedFreshness(listener: () => void): () => void {
  listeners.add(listener)
  if (listeners.size === 1) {
    void load()
    timer = setInterval(() => void load(), REFRESH_MS)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer) {
      clearInterval(timer)
      timer = null
    }
  }
}

/** The last answer of GET /api/feeds. */
export function feedFreshnessSnapshot(): FeedFreshnessSnapshot {
  return snapshot
}

/** The feeds' freshness (GET /api/feeds), fetched once for every sidebar row and refreshed each minute. */
export function useFeedFreshness(): FeedFreshnessSnapshot {
  return useSyncExternalStore(
    subscribeFeedFreshness,
    () => snapshot,
    () => snapshot,
  )
}
