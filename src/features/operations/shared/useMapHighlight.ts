import type { GeoJsonObject } from 'geojson'
import L from 'leaflet'
import { useEffect } from 'react'
import { resolveColor } from '../../../shared/config'
import { useLeafletMap } from '../../map'

/** Pane above the map's vector and override panes, so a highlight is always on top. */
export const HIGHLIGHT_PANE = 'el-ops-highlight'

/**
 * Draws `geojson` on top of the current map in the theme's `highlight` colour and fits the map
 * to it (once per new geometry); removes it when the geometry changes or the component unmounts.
 */
export function useMapHighlight(geojson: GeoJsonObject | null, options: { fit?: boolean } = {}): void {
  const map = useLeafletMap()
  const fit = options.fit ?? true
  useEffect(() => {
    if (!map || !geojson) return
    if (!map.getPane(HIGHLIGHT_PANE)) map.createPane(HIGHLIGHT_PANE).style.zIndex = '450'
    const color = resolveColor('highlight')
    const layer = L.geoJSON(geojson, {
      pane: HIGHLIGHT_PANE,
      interactive: false,
      style: { color, weight: 6, opacity: 0.95, fillOpacity: 0.15 },
      pointToLayer: (_feature, latlng) =>
        L.circleMarker(latlng, { pane: HIGHLIGHT_PANE, radius: 9, color, weight: 3 }),
    })
    layer.addTo(map)
    const bounds = layer.getBounds()
    if (fit && bounds.isValid()) map.fitBounds(bounds, { padding: [40, 40], maxZoom: 13 })
    return () => {
      layer.remove()
    }
  }, [map, geojson, fit])
}
