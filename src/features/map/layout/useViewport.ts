import { useSyncExternalStore } from 'react'

const subscribe = (notify: () => void) => {
  window.addEventListener('resize', notify)
  return () => window.removeEventListener('resize', notify)
}

/** The window's inner height in px, kept up to date. */
export function useViewportHeight(): number {
  return useSyncExternalStore(
    subscribe,
    () => window.innerHeight,
    () => 0,
  )
}

/** Widths at or below this are phones: the layer sidebar becomes a drawer over a full-width map. */
export const NARROW_QUERY = '(max-width: 768px)'

/** Whether the screen is phone-narrow (NARROW_QUERY), kept up to date. */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    (notify) => {
      const list = window.matchMedia(NARROW_QUERY)
      list.addEventListener('change', notify)
      return () => list.removeEventListener('change', notify)
    },
    () => window.matchMedia(NARROW_QUERY).matches,
    () => false,
  )
}
