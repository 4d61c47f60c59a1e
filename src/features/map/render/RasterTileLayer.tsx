import L from 'leaflet'
import { useEffect, useRef } from 'react'
import { useMap } from 'react-leaflet'
import { refreshSourceStatus } from '../../layers'
import { markMapDrawn } from './firstDraw'
import { queueLayerAdd, stackIndex } from './layerQueue'
import { retryFailedTiles } from './retryFailedTiles'
import { useRedrawOnRecovery } from './useRedrawOnRecovery'

export interface RasterTileLayerProps {
  readonly url: string
  readonly opacity: number
  readonly pane: string
  readonly minZoom?: number
  readonly maxNativeZoom?: number
  readonly tileSize?: number
  /** The provider's credit (external sources); shown in the map's attribution control. */
  readonly attribution?: string
  readonly className: string
  /** Draw order in the map (bottom first): the layer's stacking within its pane. */
  readonly order: number
  /** The source, when it is another server's: a failed tile asks for its status, and its recovery redraws. */
  readonly externalSource?: string
}

/**
 * Raster PNG tiles (opacity = paint opacity × intensity, changed live). A new URL (e.g. another
 * forecast hour) loads in a second layer above the current one, which is removed once the new
 * tiles have loaded, so the map never flashes empty between hours. Stacked by draw order (Leaflet's
 * zIndex) and added to the map in its turn (layerQueue).
 */
export function RasterTileLayer({
  url,
  opacity,
  pane,
  minZoom,
  maxNativeZoom,
  tileSize,
  attribution,
  className,
  order,
  externalSource,
}: RasterTileLayerProps) {
  const map = useMap()
  const layerRef = useRef<{ layer: L.TileLayer; url: string } | null>(null)
  /** Layers replaced by a newer URL, kept on screen until a newer layer has loaded. */
  const staleRef = useRef<L.TileLayer[]>([])
  const opacityRef = useRef(opacity)
  const orderRef = useRef(order)
  const urlRef = useRef(url)
  /** Swaps to a new URL; set while the layer is on the map. */
  const swapRef = useRef<((nextUrl: string) => void) | null>(null)
  const external = externalSource !== undefined

  useEffect(() => {
    const make = (tileUrl: string): L.TileLayer => {
      const layer = L.tileLayer(tileUrl, {
        pane,
        opacity: opacityRef.current,
        minZoom,
        maxNativeZoom,
        tileSize: tileSize ?? 256,
        zIndex: stackIndex(orderRef.current),
        className,
        attribution: attribution ?? '',
      })
      // Another server's tile failed: ask its status now, so the row's badge does not wait for the
      // poll, and ask the tile again after a pause (a slow upstream's 504 for one tile).
      if (external) {
        layer.on('tileerror', refreshSourceStatus)
        retryFailedTiles(layer)
      }
      return layer
    }
    const first = make(urlRef.current)
    first.once('tileload', markMapDrawn)
    const cancelAdd = queueLayerAdd(() => first.addTo(map))
    layerRef.current = { layer: first, url: urlRef.current }
    const swap = (nextUrl: string) => {
      const current = layerRef.current
      if (!current || current.url === nextUrl) return
      cancelAdd() // a first layer still waiting for its turn is never added
      staleRef.current.push(current.layer)
      const next = make(nextUrl)
      next.once('load', () => {
        if (layerRef.current?.layer !== next) return
        for (const old of staleRef.current) old.remove()
        staleRef.current = []
      })
      next.addTo(map)
      layerRef.current = { layer: next, url: nextUrl }
    }
    swapRef.current = swap
    return () => {
      cancelAdd()
      swapRef.current = null
      layerRef.current?.layer.remove()
      layerRef.current = null
      for (const old of staleRef.current) old.remove()
      staleRef.current = []
    }
  }, [map, pane, minZoom, maxNativeZoom, tileSize, attribution, className, external])

  // The source is back: ask again for the tiles that failed while it was down.
  useRedrawOnRecovery(externalSource, () => {
    layerRef.current?.layer.redraw()
  })

  useEffect(() => {
    urlRef.current = url
    swapRef.current?.(url)
  }, [url])

  useEffect(() => {
    if (orderRef.current === order) return
    orderRef.current = order
    layerRef.current?.layer.setZIndex(stackIndex(order))
    for (const old of staleRef.current) old.setZIndex(stackIndex(order))
  }, [order])

  useEffect(() => {
    opacityRef.current = opacity
    layerRef.current?.layer.setOpacity(opacity)
    for (const old of staleRef.current) old.setOpacity(opacity)
  }, [opacity])
  return null
}
