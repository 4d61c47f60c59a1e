import L from 'leaflet'
import { useEffect, useRef } from 'react'
import { useMap } from 'react-leaflet'
import { markMapDrawn } from './firstDraw'

export interface RasterTileLayerProps {
  readonly url: string
  readonly opacity: number
  readonly pane: string
  readonly minZoom?: number
  readonly maxNativeZoom?: number
  readonly tileSize?: number
  readonly className: string
}

/**
 * Raster PNG tiles (opacity = paint opacity × intensity, changed live). A new URL (e.g. another
 * forecast hour) loads in a second layer above the current one, which is removed once the new
 * tiles have loaded, so the map never flashes empty between hours.
 */
export function RasterTileLayer({
  url,
  opacity,
  pane,
  minZoom,
  maxNativeZoom,
  tileSize,
  className,
}: RasterTileLayerProps) {
  const map = useMap()
  const layerRef = useRef<{ layer: L.TileLayer; url: string } | null>(null)
  /** Layers replaced by a newer URL, kept on screen until a newer layer has loaded. */
  const staleRef = useRef<L.TileLayer[]>([])
  const opacityRef = useRef(opacity)
  const urlRef = useRef(url)
  /** Swaps to a new URL; set while the layer is on the map. */
  const swapRef = useRef<((nextUrl: string) => void) | null>(null)

  useEffect(() => {
    const make = (tileUrl: string): L.TileLayer =>
      L.tileLayer(tileUrl, {
        pane,
        opacity: opacityRef.current,
        minZoom,
        maxNativeZoom,
        tileSize: tileSize ?? 256,
        className,
        attribution: '',
      })
    const first = make(urlRef.current)
    first.once('tileload', markMapDrawn)
    first.addTo(map)
    layerRef.current = { layer: first, url: urlRef.current }
    const swap = (nextUrl: string) => {
      const current = layerRef.current
      if (!current || current.url === nextUrl) return
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
      swapRef.current = null
      layerRef.current?.layer.remove()
      layerRef.current = null
      for (const old of staleRef.current) old.remove()
      staleRef.current = []
    }
  }, [map, pane, minZoom, maxNativeZoom, tileSize, className])

  useEffect(() => {
    urlRef.current = url
    swapRef.current?.(url)
  }, [url])

  useEffect(() => {
    opacityRef.current = opacity
    layerRef.current?.layer.setOpacity(opacity)
    for (const old of staleRef.current) old.setOpacity(opacity)
  }, [opacity])
  return null
}
