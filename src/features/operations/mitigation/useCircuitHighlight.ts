import { geoJSON, type Map as LeafletMap } from 'leaflet'
import { useEffect } from 'react'
import { appConfig, themeConfig } from '../../../shared/config'
import { useLeafletMap } from '../../map'
import { fetchCircuit } from './fetchMitigation'
import type { RankedCircuit } from './mitigationApi'

/** CSS class of the selected circuit's outline on the map (tests find it by this). */
export const CIRCUIT_HIGHLIGHT_CLASS = 'el-mitigation-highlight'

/** A pane above the map's data panes (src/features/map/render/panes.ts tops out at 440), below popups. */
const HIGHLIGHT_PANE = 'el-mitigation-highlight-pane'
const HIGHLIGHT_Z = 450

function highlightPane(map: LeafletMap): string {
  if (!map.getPane(HIGHLIGHT_PANE)) {
    const pane = map.createPane(HIGHLIGHT_PANE)
    pane.style.zIndex = String(HIGHLIGHT_Z)
    pane.style.pointerEvents = 'none'
  }
  return HIGHLIGHT_PANE
}

/**
 * Fits the map to the selected circuit's bbox at once, then draws its line (fetched from
 * /api/mitigation/circuits/:id) over the map until another circuit is selected or the panel closes.
 */
export function useCircuitHighlight(selected: RankedCircuit | null): void {
  const map = useLeafletMap()
  const id = selected?.id ?? null
  const bbox = selected?.bbox ?? null
  const [minLon, minLat, maxLon, maxLat] = bbox ?? [0, 0, 0, 0]
  useEffect(() => {
    if (!map || id === null) return
    // The panel under the map may have resized its container since the map last measured it.
    map.invalidateSize({ pan: false })
    map.fitBounds(
      [
        [minLat, minLon],
        [maxLat, maxLon],
      ],
      { padding: [32, 32], maxZoom: appConfig.map.maxZoom },
    )
    const controller = new AbortController()
    const layer = geoJSON(undefined, {
      pane: highlightPane(map),
      interactive: false,
      style: {
        color: themeConfig.map.highlight,
        weight: 5,
        opacity: 0.95,
        className: CIRCUIT_HIGHLIGHT_CLASS,
      },
    }).addTo(map)
    fetchCircuit(id, controller.signal).then(
      (circuit) => layer.addData(circuit.geometry),
      (e: unknown) => {
        if (controller.signal.aborted) return
        const message = `Could not draw the circuit: ${e instanceof Error ? e.message : String(e)}`
        window.dispatchEvent(new CustomEvent('emberline:toast', { detail: { type: 'error', message } }))
      },
    )
    return () => {
      controller.abort()
      layer.remove()
    }
  }, [map, id, minLon, minLat, maxLon, maxLat])
}
