import { useEffect } from 'react'
import { useMap } from 'react-leaflet'
import { layersConfig } from '../../../shared/config'
import { useLayerState, type LayerUiState } from '../../layers'
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

/** Keeps the address bar's query in step with the view, so the URL reopens the same map. */
export function ShareUrlSync() {
  const map = useMap()
  const { state } = useLayerState()
  useEffect(() => {
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
  }, [map, state])
  return null
}
