import { useCallback, useEffect, useState } from 'react'
import { fetchAlerts, setAcknowledged, type AlertFilters, type AlertList } from './alertsApi'

export interface AlertsState {
  list: AlertList | null
  loading: boolean
  error: string | null
  /** Ids whose acknowledgement is being saved. */
  saving: ReadonlySet<string>
  reload(): void
  acknowledge(id: string, acknowledged: boolean): Promise<void>
}

function toast(type: 'error', message: string): void {
  window.dispatchEvent(new CustomEvent('emberline:toast', { detail: { type, message } }))
}

/** The alert list for the filters (refetched when they change) and the acknowledge action. */
export function useAlerts(filters: AlertFilters): AlertsState {
  const [list, setList] = useState<AlertList | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set())
  const [generation, setGeneration] = useState(0)
  const key = `${filters.rule ?? ''}|${filters.severity ?? ''}|${generation}`
  const [settledKey, setSettledKey] = useState<string | null>(null)

  useEffect(() => {
    const controller = new AbortController()
    fetchAlerts(filters, controller.signal)
      .then((body) => {
        setList(body)
        setError(null)
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e))
      })
      .finally(() => {
        if (!controller.signal.aborted) setSettledKey(key)
      })
    return () => controller.abort()
  }, [filters, key])

  const reload = useCallback(() => setGeneration((g) => g + 1), [])

  const acknowledge = useCallback(async (id: string, acknowledged: boolean) => {
    setSaving((s) => new Set(s).add(id))
    try {
      const result = await setAcknowledged(id, acknowledged)
      setList((l) => (l ? { ...l, alerts: l.alerts.map((a) => (a.id === id ? { ...a, ...result } : a)) } : l))
    } catch (e) {
      toast('error', `Could not save the acknowledgement: ${e instanceof Error ? e.message : String(e)}`)
    } finally {
      setSaving((s) => {
        const next = new Set(s)
        next.delete(id)
        return next
      })
    }
  }, [])

  return { list, loading: settledKey !== key, error, saving, reload, acknowledge }
}
