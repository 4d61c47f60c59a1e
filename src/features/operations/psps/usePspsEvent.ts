import type { Feature } from 'geojson'
import { useEffect } from 'react'
import { useFetched, type Loadable } from '../shared/useFetched'
import { fetchCircuitGeometry, fetchPspsEvent, type PspsEvent } from './pspsApi'

/** The event in the server's `sort` order, refetched when the order changes (stale answers dropped). */
export function usePspsEvent(sort: string | null): Loadable<PspsEvent> {
  return useFetched(`sort=${sort ?? ''}`, (signal) => fetchPspsEvent(sort, signal))
}

/** The selected circuit's geometry (null while none is selected or it is loading). */
export function useCircuitGeometry(id: number | null): Feature | null {
  const geometry = useFetched(id === null ? null : String(id), (signal) =>
    fetchCircuitGeometry(id ?? 0, signal),
  )
  const failed = geometry.status === 'error' ? geometry.message : null
  useEffect(() => {
    if (failed === null) return
    window.dispatchEvent(
      new CustomEvent('emberline:toast', {
        detail: { type: 'danger', message: `Could not load the circuit geometry: ${failed}` },
      }),
    )
  }, [failed])
  return id !== null && geometry.status === 'ready' ? geometry.data : null
}
