import { useEffect, useState } from 'react'
import { useLeafletMap } from '../mapContext'
import { captureMapImage, tilesSettled } from './captureMapImage'

/** The map view as a picture, and the view it shows. */
export interface MapImage {
  readonly url: string | null
  /** waiting: tiles still loading (or the view just changed); ready: `url` shows the current view. */
  readonly status: 'waiting' | 'ready' | 'failed'
  readonly center: readonly [number, number] | null
  readonly zoom: number | null
}

const POLL_MS = 250
/** Longest wait for tiles before the picture is taken anyway. */
const MAX_POLLS = 60

/**
 * Re-takes the picture of the map each time the view or the layers change, once every tile has
 * loaded and the number of loaded tiles has stopped changing.
 */
export function useMapImage(): MapImage {
  const map = useLeafletMap()
  const [image, setImage] = useState<MapImage>({ url: null, status: 'waiting', center: null, zoom: null })
  useEffect(() => {
    if (!map) return
    const container = map.getContainer()
    let timer: ReturnType<typeof setTimeout> | undefined
    let polls = 0
    let lastCount = -1
    const take = () => {
      polls++
      const count = container.querySelectorAll('.leaflet-tile-loaded').length
      const steady = count > 0 && count === lastCount && tilesSettled(container)
      lastCount = count
      if (!steady && polls < MAX_POLLS) {
        timer = setTimeout(take, POLL_MS)
        return
      }
      const url = captureMapImage(container)
      const c = map.getCenter()
      setImage({ url, status: url ? 'ready' : 'failed', center: [c.lng, c.lat], zoom: map.getZoom() })
    }
    const schedule = () => {
      clearTimeout(timer)
      polls = 0
      lastCount = -1
      setImage((prev) => ({ ...prev, status: 'waiting' }))
      timer = setTimeout(take, POLL_MS)
    }
    schedule()
    map.on('moveend', schedule)
    map.on('layeradd', schedule)
    map.on('layerremove', schedule)
    return () => {
      clearTimeout(timer)
      map.off('moveend', schedule)
      map.off('layeradd', schedule)
      map.off('layerremove', schedule)
    }
  }, [map])
  return image
}
