import { rectangle, type Map as LeafletMap, type Rectangle } from 'leaflet'
import { themeConfig } from '../../generated/config'
import type { Bbox } from './parseBbox'

const highlights = new WeakMap<LeafletMap, Rectangle>()

/** CSS class of the highlight outline (tests find it by this). */
export const HIGHLIGHT_CLASS = 'emberline-table-highlight'

/** Fits the map to a feature's bbox and outlines it, replacing the previous table highlight. */
export function zoomToBbox(map: LeafletMap, bbox: Bbox): void {
  const [minLon, minLat, maxLon, maxLat] = bbox
  const bounds: [[number, number], [number, number]] = [
    [minLat, minLon],
    [maxLat, maxLon],
  ]
  highlights.get(map)?.remove()
  const outline = rectangle(bounds, {
    color: themeConfig.map.highlight,
    weight: 3,
    fill: false,
    interactive: false,
    className: HIGHLIGHT_CLASS,
  }).addTo(map)
  highlights.set(map, outline)
  map.fitBounds(bounds, { padding: [24, 24], maxZoom: map.getMaxZoom() || 18 })
}
