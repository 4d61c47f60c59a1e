import { useMemo, useSyncExternalStore } from 'react'
import { authFetch } from '../session'
import { envGatedSourceIds } from '../../shared/config'
import { hiddenLayerIds, type SourceStatus } from './sourceStatus'

const REFRESH_MS = 10_000
/** The soonest a failed tile may ask for the status again (many tiles fail at once). */
const TILE_ERROR_REFRESH_MS = 2_000
let statuses: readonly SourceStatus[] = []
let loaded = false
let inFlight: Promise<void> | null = null
let lastLoad = 0
let timer: ReturnType<typeof setInterval> | null = null
/** Listeners that keep the 10-s poll running (badges, drawn external layers). */
const pollers = new Set<() => void>()
/** Listeners that only need one answer (which sources are configured does not change while the server runs). */
const readers = new Set<() => void>()

function load(): Promise<void> {
  inFlight ??= (async () => {
    lastLoad = Date.now()
    try {
      const response = await authFetch('/api/sources/status')
      if (!response.ok) return
      const body = (await response.json()) as { sources?: SourceStatus[] }
      statuses = body.sources ?? []
      loaded = true
      for (const l of [...pollers, ...readers]) l()
    } catch {
      // Informative only: a failed refresh keeps the last answer.
    } finally {
      inFlight = null
    }
  })()
  return inFlight
}

function subscribe(listener: () => void): () => void {
  pollers.add(listener)
  if (pollers.size === 1) {
    void load()
    timer = setInterval(() => void load(), REFRESH_MS)
  }
  return () => {
    pollers.delete(listener)
    if (pollers.size === 0 && timer) {
      clearInterval(timer)
      timer = null
    }
  }
}

function subscribeOnce(listener: () => void): () => void {
  readers.add(listener)
  if (!loaded) void load()
  return () => readers.delete(listener)
}

const snapshot = () => statuses

/** The external sources' states (GET /api/sources/status), one poll every 10 s shared by every listener. */
export function useSourceStatus(): readonly SourceStatus[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot)
}

/**
 * Asks for the status now (at most once per 2 s), e.g. when a tile of an external layer failed,
 * so its row's Unavailable badge shows without waiting for the next poll.
 */
export function refreshSourceStatus(): void {
  if (Date.now() - lastLoad < TILE_ERROR_REFRESH_MS) return
  void load()
}

const GATED = envGatedSourceIds()

/**
 * The layers hidden now: those drawn from a source whose `${NAME}` url is unset on the server
 * (hidden too until the server's first answer). Asks once; no poll when the catalogue has none.
 */
export function useHiddenLayerIds(): ReadonlySet<string> {
  const current = useSyncExternalStore(GATED.size > 0 ? subscribeOnce : noSubscription, snapshot, snapshot)
  return useMemo(() => (GATED.size > 0 ? hiddenLayerIds(current) : new Set<string>()), [current])
}

function noSubscription(): () => void {
  return () => undefined
}

/**
 * One source's state (polled like the badges while a caller names a source; nothing is asked for
 * `undefined`, e.g. a layer drawn from our own tiles).
 */
export function useSourceState(sourceId: string | undefined): SourceStatus['state'] | undefined {
  const current = useSyncExternalStore(
    sourceId === undefined ? noSubscription : subscribe,
    snapshot,
    snapshot,
  )
  return sourceId === undefined ? undefined : current.find((s) => s.id === sourceId)?.state
}
