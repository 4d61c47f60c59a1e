import type { FeatureCollection } from 'geojson'
import L from 'leaflet'
import { useEffect } from 'react'
import { resolveColor } from '../../../shared/config'
import { useLeafletMap } from '../../map'
import { HIGHLIGHT_PANE } from '../shared'
import type { Bbox } from './alertsApi'

/** What the map shows for the alert picked with 'Show on map'. */
export interface AlertHighlight {
  geometry: FeatureCollection
  bbox: Bbox
  /** The alert's severity colour (the hazard is drawn in it; assets in the theme's highlight colour). */
  color: string
}

/**
 * Draws the alert's hazard and assets on top of the map and fits the map to the alert's bbox;
 * the previous highlight is removed when another is shown or the panel unmounts.
 */
export function useAlertHighlight(highlight: AlertHighlight | null): void {
  const map = useLeafletMap()
  useEffect(() => {
    if (!map || !highlight) return
    if (!map.getPane(HIGHLIGHT_PANE)) map.createPane(HIGHLIGHT_PANE).style.zIndex = '450'
    const assetColor = resolveColor('highlight')
    const styleOf = (role: unknown): L.PathOptions =>
      role === 'hazard'
        ? { color: highlight.color, weight: 3, opacity: 1, fillOpacity: 0.3, className: 'el-alert-hazard' }
        : { color: assetColor, weight: 5, opacity: 0.95, fillOpacity: 0.2, className: 'el-alert-asset' }
    const layer = L.geoJSON(highlight.geometry, {
      pane: HIGHLIGHT_PANE,
      interactive: false,
      style: (feature) => styleOf(feature?.properties?.role),
      pointToLayer: (feature, latlng) =>
        L.circleMarker(latlng, { pane: HIGHLIGHT_PANE, radius: 8, ...styleOf(feature.properties?.role) }),
    })
    layer.addTo(map)
    const [w, s, e, n] = highlight.bbox
    map.fitBounds(
      [
        [s, w],
        [n, e],
      ],
      { padding: [40, 40], maxZoom: 13 },
    )
    return () => {
      layer.remove()
    }
  }, [map, highlight])
}
