import L from 'leaflet'
import { useEffect, useRef } from 'react'
import { useMap } from 'react-leaflet'
import { layersConfig, type MapLayer } from '../../../shared/config'
import { useLayerState } from '../../layers'
import { drawList, isMapLayerDrawn } from '../render/drawList'
import type { PickRegistry } from '../render/pickRegistry'
import type { CompiledPaintStyle } from '../style/compilePaintStyle'
import { popupContent, popupElement } from './popupContent'

/** Tolerance in screen pixels around the click: half the line hit width, the hit circle, or inside polygons. */
function brushPx(style: CompiledPaintStyle): number {
  if (style.type === 'line') return style.hitWidth / 2
  if (style.type === 'circle' || style.type === 'icon') return style.hitRadius
  return 1
}

export interface PickedMapFeature {
  readonly mapLayer: MapLayer
  readonly props: Readonly<Record<string, unknown>>
}

/** The top-most feature under a point among layers that have a popup or a click override. */
export function pickFeature(registry: PickRegistry, lng: number, lat: number): PickedMapFeature | null {
  for (const layer of registry.list()) {
    if (!layer.mapLayer.popup && !layer.mapLayer.clickOverride) continue
    // protomaps-leaflet halves the brush for 512 px data tiles; pass twice the screen tolerance.
    const found = layer.query(lng, lat, brushPx(layer.style) * 2)
    for (const picked of [...found.values()].flat()) {
      if (picked.layerName !== layer.style.dataLayer) continue
      if (layer.style.filter && !layer.style.filter(picked.feature.props)) continue
      return { mapLayer: layer.mapLayer, props: picked.feature.props }
    }
  }
  return null
}

/** Click handling: a configured popup, or a click override (PSPS line → its fire-consequence contours). */
export function FeaturePopups({ registry, now }: { registry: PickRegistry; now: () => number }) {
  const map = useMap()
  const { state, dispatch } = useLayerState()
  const stateRef = useRef(state)
  useEffect(() => {
    stateRef.current = state
  }, [state])
  useEffect(() => {
    const onClick = (e: L.LeafletMouseEvent) => {
      const hit = pickFeature(registry, e.latlng.lng, e.latlng.lat)
      if (!hit) {
        dispatch({ type: 'clearOverride' })
        return
      }
      const o = hit.mapLayer.clickOverride
      const value = o ? hit.props[o.matchField] : undefined
      const drawn = drawList(stateRef.current, layersConfig.layers)
      if (
        o &&
        isMapLayerDrawn(drawn, o.whenVisible) &&
        (typeof value === 'string' || typeof value === 'number')
      ) {
        map.closePopup()
        dispatch({ type: 'showOverride', override: { mapLayerId: o.show, field: o.matchField, value } })
        return
      }
      if (!hit.mapLayer.popup) return
      const content = popupContent(hit.mapLayer.popup, hit.props, now())
      L.popup({ className: 'el-leaflet-popup', maxWidth: 320 })
        .setLatLng(e.latlng)
        .setContent(popupElement(content))
        .openOn(map)
    }
    map.on('click', onClick)
    return () => {
      map.off('click', onClick)
    }
  }, [map, registry, dispatch, now])
  return null
}
