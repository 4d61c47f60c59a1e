import { useEffect, useRef } from 'react'
import { useSourceState } from '../../layers'

/**
 * Calls `redraw` when another server's source comes back (its state goes from unavailable to ok in
 * GET /api/sources/status), so the tiles that failed while it was down are asked again: recovery
 * needs no action from the user. Nothing for `undefined` (a layer drawn from our own tiles).
 */
export function useRedrawOnRecovery(sourceId: string | undefined, redraw: () => void): void {
  const state = useSourceState(sourceId)
  const last = useRef(state)
  const redrawRef = useRef(redraw)
  useEffect(() => {
    redrawRef.current = redraw
  }, [redraw])
  useEffect(() => {
    if (last.current === 'unavailable' && state === 'ok') redrawRef.current()
    last.current = state
  }, [state])
}
