import type { Feature, FeatureCollection, Point } from 'geojson'
import { useEffect } from 'react'
import type { FireWhatIfResult } from '../../shared/fireSim/wireTypes'
import { useMapHighlighter } from '../map'
import { hourLabels, isochroneColor } from './isochroneStyle'

/** CSS classes of the drawn isochrones (`el-fire-isochrone el-fire-hour-<n>`), ignition and labels. */
export const ISOCHRONE_CLASS = 'el-fire-isochrone'
export const IGNITION_CLASS = 'el-fire-ignition'
export const HOUR_LABEL_CLASS = 'el-fire-hour-label'

/**
 * Draws a what-if's hourly isochrones (graded colours, the last hour beneath, the first on top), its
 * ignition point and hour labels over the map, and fits the map to the fire once; removed when the
 * result changes or the component unmounts. `canvas`: for the briefing's map picture.
 */
export function useWhatIfDrawing(result: FireWhatIfResult | null, options: { canvas?: boolean } = {}): void {
  const highlighter = useMapHighlighter()
  const canvas = options.canvas ?? false
  useEffect(() => {
    if (!highlighter || !result) return
    const hours = result.isochrones.features.length
    const latestFirst: FeatureCollection = {
      type: 'FeatureCollection',
      features: [...result.isochrones.features].reverse() as Feature[],
    }
    const areas = highlighter.drawGeoJson(latestFirst, {
      canvas,
      path: (p) => {
        const hour = Number(p?.['hour'] ?? 1)
        const color = isochroneColor(hour, hours)
        return {
          color,
          weight: 1.5,
          opacity: 0.95,
          fill: true,
          fillOpacity: 0.35,
          className: `${ISOCHRONE_CLASS} el-fire-hour-${hour}`,
        }
      },
    })
    const point: Point = { type: 'Point', coordinates: [result.point[0], result.point[1]] }
    const ignition = highlighter.drawGeoJson(point, {
      canvas,
      path: () => ({ color: '#ffffff', weight: 2 }),
      point: () => ({
        color: '#ffffff',
        weight: 2,
        radius: 6,
        fill: true,
        fillOpacity: 1,
        className: IGNITION_CLASS,
      }),
    })
    const labels = highlighter.drawLabels(hourLabels(result, HOUR_LABEL_CLASS))
    areas.fit({ padding: 40, maxZoom: 14, measure: true })
    return () => {
      areas.remove()
      ignition.remove()
      labels.remove()
    }
  }, [highlighter, result, canvas])
}
