import { useEffect } from 'react'
import { useMap } from 'react-leaflet'
import { layersConfig } from '../../../shared/config'
import { useLayerState, type LayerUiState } from '../../layers'
import { useAfterMapDrawn } from '../layout/useAfterMapDrawn'
import { encodeSharedView, type SharedView } from './shareState'

function viewOf(map: L.Map, state: LayerUiState): SharedView {
  const c = map.getCenter()
  const radio = layersConfig.layers.filter((l) => l.subLayerControl === 'radio')
  return {
    center: [c.lng, c.lat],
    zoom: map.getZoom(),
    visibleLayers: layersConfig.layers.filter((l) => state.visible[l.id]).map((l) => l.id),
    subLayers: Object.fromEntries(
      radio.flatMap((l) => {
        const sub = state.selectedSubLayer[l.id]
        return sub ? [[l.id, sub] as const] : []
      }),
    ),
  }
}

/**
 * Keeps the address bar's query in step with the view, so the URL reopens the same map. It starts once
 * the first tiles are drawn (each history.replaceState costs the main thread a few ms the first view
 * does not need), then writes the view as it is at that moment and on every change.
 */
export function ShareUrlSync() {
  const map = useMap()
  const { state } = useLayerState()
  const started = useAfterMapDrawn()
  useEffect(() => {
    if (!started) return
    const write = () => {
      const { pathname, search, hash } = window.location
      const next = encodeSharedView(viewOf(map, state), search)
      if (next !== search) window.history.replaceState(window.history.state, '', `${pathname}${next}${hash}`)
    }
    write()
    map.on('moveend', write)
    return () => {
      map.off('moveend', write)
    }
  }, [map, state, started])
  return null
}
