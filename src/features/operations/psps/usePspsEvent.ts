import type { Feature } from 'geojson'
import { useEffect, useState } from 'react'
import { fetchCircuitGeometry, fetchPspsEvent, type PspsEvent } from './pspsApi'

export type Loadable<T> =
  | { status: 'loading'; data: T | null }
  | { status: 'ready'; data: T }
  | { status: 'error'; data: T | null; message: string }

/** The event in the server's `sort` order, refetched when the order changes (stale answers dropped). */
export function usePspsEvent(sort: string | null): Loadable<PspsEvent> {
  const [state, setState] = useState<Loadable<PspsEvent>>({ status: 'loading', data: null })
  useEffect(() => {
    const abort = new AbortController()
    setState((s) => ({ status: 'loading', data: s.data }))
    fetchPspsEvent(sort, abort.signal).then(
      (data) => setState({ status: 'ready', data }),
      (error: Error) => {
        if (!abort.signal.aborted)
          setState((s) => ({ status: 'error', data: s.data, message: error.message }))
      },
    )
    return () => abort.abort()
  }, [sort])
  return state
}

/** The selected circuit's geometry (null while none is selected or it is loading). */
export function useCircuitGeometry(id: number | null): Feature | null {
  const [feature, setFeature] = useState<Feature | null>(null)
  useEffect(() => {
    setFeature(null)
    if (id === null) return
    const abort = new AbortController()
    fetchCircuitGeometry(id, abort.signal).then(setFeature, (error: Error) => {
      if (abort.signal.aborted) return
      window.dispatchEvent(
        new CustomEvent('emberline:toast', {
          detail: { type: 'danger', message: `Could not load the circuit geometry: ${error.message}` },
        }),
      )
    })
    return () => abort.abort()
  }, [id])
  return feature
}
