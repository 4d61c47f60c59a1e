import type { FeatureCollection } from 'geojson'
import { useEffect } from 'react'
import { resolveColor } from '../../../shared/config'
import { useMapHighlighter, type HighlightStyle } from '../../map'
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
  const highlighter = useMapHighlighter()
  useEffect(() => {
    if (!highlighter || !highlight) return
    const assetColor = resolveColor('highlight')
    const styleOf = (role: unknown): HighlightStyle =>
      role === 'hazard'
        ? { color: highlight.color, weight: 3, opacity: 1, fillOpacity: 0.3, className: 'el-alert-hazard' }
        : { color: assetColor, weight: 5, opacity: 0.95, fillOpacity: 0.2, className: 'el-alert-asset' }
    const drawn = highlighter.drawGeoJson(highlight.geometry, {
      path: (properties) => styleOf(properties?.role),
      point: (properties) => ({ radius: 8, ...styleOf(properties?.role) }),
    })
    highlighter.fitBbox(highlight.bbox, { padding: 40, maxZoom: 13 })
    return () => drawn.remove()
  }, [highlighter, highlight])
}
