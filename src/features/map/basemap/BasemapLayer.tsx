import L from 'leaflet'
import { leafletLayer } from 'protomaps-leaflet'
import { useEffect } from 'react'
import { useMap } from 'react-leaflet'
import { appConfig } from '../../../shared/config'
import { resolveColor } from '../catalog/catalog'
import { basemapLabelRules, basemapPaintRules } from './basemapStyle'

/** URL of the offline basemap tiles our server generates (src/server/basemap). */
export const BASEMAP_TILE_URL = '/api/basemap/{z}/{x}/{y}'
const BASEMAP_MAX_DATA_ZOOM = 10

/** The dark basemap: the online URL from config when set, else our offline outline tiles. */
export function BasemapLayer() {
  const map = useMap()
  useEffect(() => {
    const online: string | null | undefined = appConfig.map.onlineBasemapUrl
    const layer: L.Layer = online
      ? L.tileLayer(online, { className: 'el-basemap' })
      : (leafletLayer({
          url: BASEMAP_TILE_URL,
          paintRules: basemapPaintRules(),
          labelRules: basemapLabelRules(),
          backgroundColor: resolveColor('basemapWater'),
          maxDataZoom: BASEMAP_MAX_DATA_ZOOM,
          attribution: 'US Census (us-atlas)',
          className: 'el-basemap',
        } as L.GridLayerOptions) as unknown as L.Layer)
    layer.addTo(map)
    return () => {
      layer.remove()
    }
  }, [map])
  return null
}
