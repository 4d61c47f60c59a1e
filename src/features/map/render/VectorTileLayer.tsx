import { leafletLayer, type PickedFeature } from 'protomaps-leaflet'
import { useEffect, useMemo, useRef } from 'react'
import { useMap } from 'react-leaflet'
import type { MapLayer } from '../../../shared/config'
import type { CompiledPaintStyle } from '../style/compilePaintStyle'
import { toPaintRules } from '../style/toPaintRules'
import { markMapDrawn } from './firstDraw'
import { queueLayerAdd, stackIndex } from './layerQueue'
import { useRedrawOnRecovery } from './useRedrawOnRecovery'
import type { PickRegistry } from './pickRegistry'
import { vectorTileSpec, type VectorSource } from './vectorTileSpec'

interface GridLayerWithQuery extends L.GridLayer {
  queryTileFeaturesDebug(lng: number, lat: number, brushSize?: number): Map<string, PickedFeature[]>
}

export interface VectorTileLayerProps {
  readonly drawKey: string
  readonly mapLayer: MapLayer
  readonly source: VectorSource
  readonly style: CompiledPaintStyle
  readonly demo: boolean
  readonly opacity: number
  readonly pane: string
  readonly order: number
  readonly now: () => number
  readonly registry: PickRegistry
  /** The source, when it is another server's: its recovery redraws the tiles. */
  readonly externalSource?: string
}

/**
 * Vector (MVT) tiles drawn by protomaps-leaflet with paint rules compiled from config. The layer
 * stacks by its draw order (Leaflet's zIndex within its pane), so a change of order restacks it
 * instead of re-creating it, and it is added to the map in its turn (layerQueue).
 */
export function VectorTileLayer(props: VectorTileLayerProps) {
  const { drawKey, mapLayer, source, style, demo, pane, order, now, registry, externalSource } = props
  const map = useMap()
  const layerRef = useRef<GridLayerWithQuery | null>(null)
  const opacityRef = useRef(props.opacity)
  const orderRef = useRef(order)
  /** Registers the layer for picking at a draw order; set once the layer is on the map. */
  const registerRef = useRef<((order: number) => void) | null>(null)
  const paintRules = useMemo(() => toPaintRules(style, now), [style, now])

  useEffect(() => {
    const spec = vectorTileSpec(source, demo)
    const levelDiff = Math.max(0, Math.round(Math.log2(spec.tileSize / 256)))
    const options = {
      url: spec.url,
      paintRules,
      labelRules: [],
      maxDataZoom: spec.maxDataZoom,
      levelDiff,
      minZoom: spec.minZoom + levelDiff,
      pane,
      zIndex: stackIndex(orderRef.current),
      attribution: '',
      opacity: opacityRef.current,
      className: `el-layer-${mapLayer.id}`,
    }
    const layer = leafletLayer(options) as unknown as GridLayerWithQuery
    layer.once('tileload', markMapDrawn)
    layerRef.current = layer
    const register = (drawOrder: number) =>
      registry.add(drawKey, {
        mapLayer,
        style,
        order: drawOrder,
        query: (lng, lat, brush) => layer.queryTileFeaturesDebug(lng, lat, brush),
      })
    const cancelAdd = queueLayerAdd(() => {
      layer.addTo(map)
      registerRef.current = register
      register(orderRef.current)
    })
    return () => {
      cancelAdd()
      registerRef.current = null
      registry.remove(drawKey)
      layer.remove()
      layerRef.current = null
    }
  }, [map, drawKey, mapLayer, source, style, demo, pane, paintRules, registry])

  useEffect(() => {
    if (orderRef.current === order) return
    orderRef.current = order
    layerRef.current?.setZIndex(stackIndex(order))
    registerRef.current?.(order)
  }, [order])

  // The source is back: draw again the tiles that came out empty while it was down.
  useRedrawOnRecovery(externalSource, () => {
    layerRef.current?.redraw()
  })

  useEffect(() => {
    opacityRef.current = props.opacity
    layerRef.current?.setOpacity(props.opacity)
  }, [props.opacity])
  return null
}
