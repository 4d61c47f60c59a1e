import L from 'leaflet'
import { useEffect, useRef } from 'react'
import { useMap } from 'react-leaflet'
import { layerById, layersConfig, mapLayerById, type MapLayer } from '../../../shared/config'
import { useHiddenLayerIds, useLayerState } from '../../layers'
import { authFetch } from '../../session'
import { drawList, isMapLayerDrawn } from '../render/drawList'
import type { PickRegistry } from '../render/pickRegistry'
import type { CompiledPaintStyle } from '../style/compilePaintStyle'
import './keyboardPick.css'
import { popupContent, popupElement, type PopupContent } from './popupContent'
import { infoSourceOf, sourceInfoContent, sourceInfoUrl, type SourceInfoAnswer } from './sourceInfo'

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

/** Tolerance (screen px) of a pick at the map centre from the keyboard, where no pointer aims. */
const KEYBOARD_BRUSH_PX = 12

/**
 * The top-most feature under a point among layers that have a popup or a click override, within
 * the layer's own tolerance or `minBrushPx`, whichever is larger.
 */
export function pickFeature(
  registry: PickRegistry,
  lng: number,
  lat: number,
  minBrushPx = 0,
): PickedMapFeature | null {
  for (const layer of registry.list()) {
    if (!layer.mapLayer.popup && !layer.mapLayer.clickOverride) continue
    // protomaps-leaflet halves the brush for 512 px data tiles; pass twice the screen tolerance.
    const found = layer.query(lng, lat, Math.max(brushPx(layer.style), minBrushPx) * 2)
    for (const picked of [...found.values()].flat()) {
      if (picked.layerName !== layer.style.dataLayer) continue
      if (layer.style.filter && !layer.style.filter(picked.feature.props)) continue
      return { mapLayer: layer.mapLayer, props: picked.feature.props }
    }
  }
  return null
}

/**
 * Click handling: a configured popup, or a click override (PSPS line → its fire-consequence contours).
 * From the keyboard, Enter on the focused map does the same for the feature under the map's centre
 * (marked by a cross while the map has keyboard focus; the arrow keys pan it there); the popup then
 * takes focus, and Escape closes it and gives focus back to the map.
 */
export function FeaturePopups({ registry, now }: { registry: PickRegistry; now: () => number }) {
  const map = useMap()
  const { state, dispatch } = useLayerState()
  // A layer of a source switched off on the server is neither drawn nor asked on a click, even if a
  // shared link switches it on: its popups and point queries come from the drawn layers only.
  const hidden = useHiddenLayerIds()
  const stateRef = useRef(state)
  const hiddenRef = useRef(hidden)
  useEffect(() => {
    stateRef.current = state
  }, [state])
  useEffect(() => {
    hiddenRef.current = hidden
  }, [hidden])
  useEffect(() => {
    const drawnNow = () =>
      drawList(
        stateRef.current,
        layersConfig.layers.filter((l) => !hiddenRef.current.has(l.id)),
      )
    const pickAt = (latlng: L.LatLng, keyboard: boolean) => {
      const click = ++clicks
      const hit = pickFeature(registry, latlng.lng, latlng.lat, keyboard ? KEYBOARD_BRUSH_PX : 0)
      if (!hit) {
        dispatch({ type: 'clearOverride' })
        void askRasterSources(latlng, keyboard, click)
        return
      }
      const o = hit.mapLayer.clickOverride
      const value = o ? hit.props[o.matchField] : undefined
      const drawn = drawnNow()
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
      openPopup(latlng, popupContent(hit.mapLayer.popup, hit.props, now()), keyboard)
    }
    let clicks = 0
    const openPopup = (latlng: L.LatLng, popup: PopupContent, keyboard: boolean) => {
      const content = popupElement(popup)
      L.popup({ className: 'el-leaflet-popup', maxWidth: 320 })
        .setLatLng(latlng)
        .setContent(content)
        .openOn(map)
      if (keyboard) {
        content.tabIndex = -1
        content.focus()
      }
    }
    // No feature of ours there: ask the visible raster layers of other servers (WMS GetFeatureInfo,
    // ArcGIS identify, through /api/sources/<id>/info), top-most first; the first with a feature wins.
    const askRasterSources = async (latlng: L.LatLng, keyboard: boolean, click: number) => {
      const drawn = drawnNow().reverse()
      for (const item of drawn) {
        const mapLayer = mapLayerById(item.mapLayerId)
        const sourceId = infoSourceOf(mapLayer)
        if (!sourceId) continue
        let answer: SourceInfoAnswer
        try {
          const res = await authFetch(sourceInfoUrl(sourceId, latlng.lng, latlng.lat, map.getZoom()))
          if (!res.ok) continue
          answer = (await res.json()) as SourceInfoAnswer
        } catch {
          continue
        }
        if (click !== clicks) return // another click since
        const popup = sourceInfoContent(layerById(item.layerId).name, mapLayer.popup, answer, now())
        if (popup) return openPopup(latlng, popup, keyboard)
      }
    }
    const onClick = (e: L.LeafletMouseEvent) => pickAt(e.latlng, false)
    const container = map.getContainer()
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.key === 'Enter' && e.target === container) {
        e.preventDefault()
        pickAt(map.getCenter(), true)
      } else if (
        e.key === 'Escape' &&
        e.target !== container &&
        map.getContainer().querySelector('.el-popup')
      ) {
        // Leaflet closes a popup on Escape only while the map itself has focus.
        map.closePopup()
        container.focus()
      }
    }
    map.on('click', onClick)
    container.addEventListener('keydown', onKeyDown)
    return () => {
      map.off('click', onClick)
      container.removeEventListener('keydown', onKeyDown)
    }
  }, [map, registry, dispatch, now])
  return null
}
