import L from 'leaflet'
import { useEffect, useState } from 'react'
import { useLeafletMap } from '../mapContext'
import { layerQueueIdle } from '../render/layerQueue'
import { captureMapImage } from './captureMapImage'
import { LOOK_MS, pictureTiming, type TileLayerState } from './pictureTiming'

/** The map view as a picture, and the view it shows. */
export interface MapImage {
  /** An object URL of the PNG (kept until the next picture replaces it or the page closes). */
  readonly url: string | null
  /** waiting: tiles still loading (or the view just changed); ready: `url` shows the current view. */
  readonly status: 'waiting' | 'ready' | 'failed'
  readonly center: readonly [number, number] | null
  readonly zoom: number | null
}

/**
 * The tile layers as Leaflet knows them. `isLoading()` turns false once every visible tile has
 * finished — loaded, failed, or empty (a 204 PNG tile fails as an image and never gets the
 * `leaflet-tile-loaded` class, which is why counting classes waited for the 15 s fallback).
 */
function tileLayerState(map: L.Map): TileLayerState {
  let layers = 0
  let loading = 0
  map.eachLayer((layer) => {
    if (!(layer instanceof L.GridLayer)) return
    layers++
    if (layer.isLoading()) loading++
  })
  return { layers, loading, queued: !layerQueueIdle() }
}

/**
 * Re-takes the picture of the map each time the view or the layers change, once every tile layer
 * has finished loading and stayed so for a moment (pictureTiming).
 */
export function useMapImage(): MapImage {
  const map = useLeafletMap()
  const [image, setImage] = useState<MapImage>({ url: null, status: 'waiting', center: null, zoom: null })
  useEffect(() => {
    if (!map) return
    const container = map.getContainer()
    let timer: ReturnType<typeof setTimeout> | undefined
    let round = 0
    let shown: string | null = null
    const take = async (mine: number) => {
      const blob = await captureMapImage(container)
      if (mine !== round) return // the view changed while the PNG was encoded
      const url = blob ? URL.createObjectURL(blob) : null
      if (shown) URL.revokeObjectURL(shown)
      shown = url
      const c = map.getCenter()
      setImage({ url, status: url ? 'ready' : 'failed', center: [c.lng, c.lat], zoom: map.getZoom() })
    }
    const schedule = () => {
      clearTimeout(timer)
      const mine = ++round
      const step = pictureTiming(performance.now())
      setImage((prev) => (prev.status === 'waiting' ? prev : { ...prev, status: 'waiting' }))
      const look = () => {
        if (step(tileLayerState(map), performance.now()) === 'take') void take(mine)
        else timer = setTimeout(look, LOOK_MS)
      }
      timer = setTimeout(look, LOOK_MS)
    }
    schedule()
    map.on('moveend', schedule)
    map.on('layeradd', schedule)
    map.on('layerremove', schedule)
    return () => {
      clearTimeout(timer)
      round++
      if (shown) URL.revokeObjectURL(shown)
      map.off('moveend', schedule)
      map.off('layeradd', schedule)
      map.off('layerremove', schedule)
    }
  }, [map])
  return image
}
