import { createContext, useContext } from 'react'
import type { Map as LeafletMap } from 'leaflet'

/** The Leaflet map of the current map screen, for features that move or highlight it. */
export const MapInstanceContext = createContext<LeafletMap | null>(null)

export function useLeafletMap(): LeafletMap | null {
  return useContext(MapInstanceContext)
}
