import { useSyncExternalStore } from 'react'
import { authFetch } from '../session'
import type { SourceStatus } from './sourceStatus'

const REFRESH_MS = 10_000
let statuses: readonly SourceStatus[] = []
let timer: ReturnType<typeof setInterval> | null = null
const listeners = new Set<() => void>()

async function load(): Promise<void> {
  try {
    const response = await authFetch('/api/sources/status')
    if (!response.ok) return
    const body = (await response.json()) as { sources?: SourceStatus[] }
    statuses = body.sources ?? []
    for (const l of listeners) l()
  } catch {
    // Informative only: a failed refresh keeps the last answer.
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

/** The external sources' states (GET /api/sources/status), one poll every 10 s shared by every listener. */
export function useSourceStatus(): readonly SourceStatus[] {
  return useSyncExternalStore(
    subscribe,
    () => statuses,
    () => statuses,
  )
}
