import { startTransition, useEffect, useState } from 'react'
import { whenMapDrawn } from '../render/firstDraw'

/** Longest wait for the map's first tiles (tiles failing, a slow server) before the rest renders anyway. */
export const AFTER_MAP_DRAWN_FALLBACK_MS = 1000

/**
 * False until the map's first data tiles are drawn and painted (or `fallbackMs` has passed), then true,
 * rendered as a transition. A part of the screen shown this way (the layer sidebar, the panel beneath
 * the map) does not compete with the first map view for the main thread: the tiles' responses are
 * parsed and painted first, and React yields to the tile layers while it renders the rest.
 */
export function useAfterMapDrawn(fallbackMs: number = AFTER_MAP_DRAWN_FALLBACK_MS): boolean {
  const [ready, setReady] = useState(false)
  useEffect(() => {
    let live = true
    void whenMapDrawn(fallbackMs).then(() => {
      if (live) startTransition(() => setReady(true))
    })
    return () => {
      live = false
    }
  }, [fallbackMs])
  return ready
}
