import type { GeoJsonObject } from 'geojson'
import { useEffect } from 'react'
import { resolveColor } from '../../../shared/config'
import { useMapHighlighter } from './useMapHighlighter'

/**
 * Draws `geojson` on top of the current map in the theme's `highlight` colour and fits the map
 * to it (once per new geometry); removes it when the geometry changes or the component unmounts.
 */
export function useMapHighlight(geojson: GeoJsonObject | null, options: { fit?: boolean } = {}): void {
  const highlighter = useMapHighlighter()
  const fit = options.fit ?? true
  useEffect(() => {
    if (!highlighter || !geojson) return
    const color = resolveColor('highlight')
    const drawn = highlighter.drawGeoJson(geojson, {
      path: () => ({ color, weight: 6, opacity: 0.95, fillOpacity: 0.15 }),
      point: () => ({ color, weight: 3, radius: 9 }),
    })
    if (fit) drawn.fit({ padding: 40, maxZoom: 13 })
    return () => drawn.remove()
  }, [highlighter, geojson, fit])
}
