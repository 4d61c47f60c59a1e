import { useLeafletMap } from '../mapContext'
import { mapHighlighter, type MapHighlighter } from './mapHighlighter'

/** The current map screen's highlighter; null until the map exists (or off the map screens). */
export function useMapHighlighter(): MapHighlighter | null {
  const map = useLeafletMap()
  return map ? mapHighlighter(map) : null
}
