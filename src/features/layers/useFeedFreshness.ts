import { useSyncExternalStore } from 'react'
import { authFetch } from '../session'
import type { FeedFreshness } from './feedFreshness'

const REFRESH_MS = 60_000
/** The last answer and the client clock when it arrived (ages are measured from it, refreshed each minute). */
let snapshot: { feeds: readonly FeedFreshness[]; at: number } = { feeds: [], at: 0 }
let timer: ReturnType<typeof setInterval> | null = null
const listeners = new Set<() => void>()

async function load(): Promise<void> {
  try {
    const response = await authFetch('/api/feeds')
    if (!response.ok) return
    const body = (await response.json()) as { feeds?: FeedFreshness[] }
    snapshot = { feeds: body.feeds ?? [], at: Date.now() }
    for (const l of listeners) l()
  } catch {
    // Freshness is informative: a failed refresh keeps the last answer.
  }
}

function subscribe(listener: () => void): () => void {
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

/** The feeds' freshness (GET /api/feeds), fetched once for every sidebar row and refreshed each minute. */
export function useFeedFreshness(): { feeds: readonly FeedFreshness[]; at: number } {
  return useSyncExternalStore(
    subscribe,
    () => snapshot,
    () => snapshot,
  )
}
