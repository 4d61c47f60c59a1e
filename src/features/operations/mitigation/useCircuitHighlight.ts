import { useEffect } from 'react'
import { appConfig, themeConfig } from '../../../shared/config'
import { notify } from '../../../shared/toastEvents'
import { useMapHighlighter } from '../../map'
import { fetchCircuit } from './fetchMitigation'
import type { RankedCircuit } from './mitigationApi'

/** CSS class of the selected circuit's outline on the map (tests find it by this). */
export const CIRCUIT_HIGHLIGHT_CLASS = 'el-mitigation-highlight'

/**
 * Fits the map to the selected circuit's bbox at once, then draws its line (fetched from
 * /api/mitigation/circuits/:id) over the map until another circuit is selected or the panel closes.
 */
export function useCircuitHighlight(selected: RankedCircuit | null): void {
  const highlighter = useMapHighlighter()
  const id = selected?.id ?? null
  const bbox = selected?.bbox ?? null
  const [minLon, minLat, maxLon, maxLat] = bbox ?? [0, 0, 0, 0]
  useEffect(() => {
    if (!highlighter || id === null) return
    // The panel under the map may have resized its container since the map last measured it.
    highlighter.fitBbox([minLon, minLat, maxLon, maxLat], {
      padding: 32,
      maxZoom: appConfig.map.maxZoom,
      measure: true,
    })
    const controller = new AbortController()
    const drawn = highlighter.drawGeoJson(undefined, {
      path: () => ({
        color: themeConfig.map.highlight,
        weight: 5,
        opacity: 0.95,
        className: CIRCUIT_HIGHLIGHT_CLASS,
      }),
    })
    fetchCircuit(id, controller.signal).then(
      (circuit) => drawn.addData(circuit.geometry),
      (e: unknown) => {
        if (controller.signal.aborted) return
        notify('error', `Could not draw the circuit: ${e instanceof Error ? e.message : String(e)}`)
      },
    )
    return () => {
      controller.abort()
      drawn.remove()
    }
  }, [highlighter, id, minLon, minLat, maxLon, maxLat])
}
