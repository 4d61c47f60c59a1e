import { useEffect, useState } from 'react'
import { fetchPlanning, type PlanningResult } from './planningApi'

export type PlanningState =
  | { status: 'loading'; data: PlanningResult | null }
  | { status: 'ready'; data: PlanningResult }
  | { status: 'error'; data: PlanningResult | null; message: string }

/** The planning list for an hour (null: the server's current hour) and the what-if thresholds. */
export function usePlanning(hour: number | null, overrides: Readonly<Record<string, number>>): PlanningState {
  const [state, setState] = useState<PlanningState>({ status: 'loading', data: null })
  const key = JSON.stringify(overrides)
  useEffect(() => {
    const abort = new AbortController()
    setState((s) => ({ status: 'loading', data: s.data }))
    fetchPlanning(hour, JSON.parse(key) as Record<string, number>, abort.signal).then(
      (data) => setState({ status: 'ready', data }),
      (error: Error) => {
        if (!abort.signal.aborted)
          setState((s) => ({ status: 'error', data: s.data, message: error.message }))
      },
    )
    return () => abort.abort()
  }, [hour, key])
  return state
}
