import { circleMarker, rectangle, type Map as LeafletMap, type Path } from 'leaflet'
import { appConfig, themeConfig } from '../../shared/config'
import type { Bbox } from './parseBbox'

const highlights = new WeakMap<LeafletMap, Path>()

/** CSS class of the highlight outline (tests find it by this). */
export const HIGHLIGHT_CLASS = 'emberline-table-highlight'

/**
 * Fits the map to a feature's bbox [minLon, minLat, maxLon, maxLat] and outlines it (a ring for
 * point features), replacing the previous table highlight on that map.
 */
export function zoomToBbox(map: LeafletMap, bbox: Bbox): void {
  const [minLon, minLat, maxLon, maxLat] = bbox
  const bounds: [[number, number], [number, number]] = [
    [minLat, minLon],
    [maxLat, maxLon],
  ]
  const style = {
    color: themeConfig.map.highlight,
    weight: 3,
    fill: false,
    interactive: false,
    className: HIGHLIGHT_CLASS,
  }
  const isPoint = minLon === maxLon && minLat === maxLat
  highlights.get(map)?.remove()
  const outline = isPoint
    ? circleMarker([minLat, minLon], { ...style, radius: 14 })
    : rectangle(bounds, style)
  highlights.set(map, outline.addTo(map))
  // The panel opening shrinks the map's container; make Leaflet measure it before centring.
  map.invalidateSize({ pan: false })
  map.fitBounds(bounds, { padding: [24, 24], maxZoom: appConfig.map.maxZoom })
}
