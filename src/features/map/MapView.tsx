import type { Map as LeafletMap } from 'leaflet'
import { memo, useMemo, useState } from 'react'
import { AttributionControl, MapContainer, ScaleControl } from 'react-leaflet'
import { appConfig } from '../../shared/config'
import { BasemapLayer } from './basemap/BasemapLayer'
import { LocateControl } from './controls/LocateControl'
import { FeaturePopups } from './popup/FeaturePopups'
import { ConfigLayers } from './render/ConfigLayers'
import { mapClock } from './render/mapClock'
import { PickRegistry } from './render/pickRegistry'
import type { SharedView } from './share/shareState'
import { ShareUrlSync } from './share/ShareUrlSync'

export interface MapViewProps {
  readonly demo: boolean
  readonly shared: SharedView
  readonly onMap: (map: LeafletMap | null) => void
}

/**
 * The Leaflet map: basemap, config layers, popups, zoom/scale/locate controls, share-URL sync. Memoised:
 * the screen re-renders (the map instance arriving, the sidebar appearing) do not re-render the map.
 */
export const MapView = memo(function MapView({ demo, shared, onMap }: MapViewProps) {
  const [registry] = useState(() => new PickRegistry())
  const now = useMemo(() => mapClock(demo), [demo])
  const defaults = demo ? appConfig.map.demo : appConfig.map.live
  const [lng = 0, lat = 0] = shared.center ?? defaults.center
  return (
    <MapContainer
      ref={onMap}
      className="el-map"
      center={[lat, lng]}
      zoom={shared.zoom ?? defaults.zoom}
      minZoom={appConfig.map.minZoom}
      maxZoom={appConfig.map.maxZoom}
      attributionControl={false}
    >
      {/* data layers first: their tiles are requested before the basemap's (the first view waits for them) */}
      <ConfigLayers demo={demo} registry={registry} />
      <BasemapLayer />
      <FeaturePopups registry={registry} now={now} />
      <ScaleControl position="bottomleft" />
      <AttributionControl position="bottomright" prefix={false} />
      <LocateControl />
      <ShareUrlSync />
    </MapContainer>
  )
})
