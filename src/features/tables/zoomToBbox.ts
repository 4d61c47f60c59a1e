import { appConfig, themeConfig } from '../../shared/config'
import type { DrawnHighlight, MapHighlighter } from '../map'
import type { Bbox } from './parseBbox'

const highlights = new WeakMap<MapHighlighter, DrawnHighlight>()

/** CSS class of the highlight outline (tests find it by this). */
export const HIGHLIGHT_CLASS = 'emberline-table-highlight'

/**
 * Fits the map to a feature's bbox [minLon, minLat, maxLon, maxLat] and outlines it (a ring for
 * point features), replacing the previous table highlight on that map.
 */
export function zoomToBbox(highlighter: MapHighlighter, bbox: Bbox): void {
  highlights.get(highlighter)?.remove()
  const outline = highlighter.outlineBbox(bbox, {
    color: themeConfig.map.highlight,
    weight: 3,
    fill: false,
    className: HIGHLIGHT_CLASS,
    radius: 14,
  })
  highlights.set(highlighter, outline)
  // The panel opening shrinks the map's container; make Leaflet measure it before centring.
  highlighter.fitBbox(bbox, { padding: 24, maxZoom: appConfig.map.maxZoom, measure: true })
}
