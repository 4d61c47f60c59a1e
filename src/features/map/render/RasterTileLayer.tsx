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

/** Raster PNG tiles (opacity = paint opacity × intensity, changed live). */
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
  const layerRef = useRef<L.TileLayer | null>(null)
  const opacityRef = useRef(opacity)
  useEffect(() => {
    const layer = L.tileLayer(url, {
      pane,
      opacity: opacityRef.current,
      minZoom,
      maxNativeZoom,
      tileSize: tileSize ?? 256,
      className,
      attribution: '',
    })
    layer.once('tileload', markMapDrawn)
    layer.addTo(map)
    layerRef.current = layer
    return () => {
      layer.remove()
      layerRef.current = null
    }
  }, [map, url, pane, minZoom, maxNativeZoom, tileSize, className])
  useEffect(() => {
    opacityRef.current = opacity
    layerRef.current?.setOpacity(opacity)
  }, [opacity])
  return null
}
