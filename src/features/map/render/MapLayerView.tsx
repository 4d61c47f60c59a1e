import { useMemo } from 'react'
import { mapLayerById, sourceById, tileUrlTemplate } from '../catalog/catalog'
import { compilePaintStyle, type CompileOptions } from '../style/compilePaintStyle'
import { WindParticleLayer } from '../wind/WindParticleLayer'
import type { DrawItem } from './drawList'
import { withForecastHour } from './hourlyTileUrl'
import { paneFor } from './panes'
import type { PickRegistry } from './pickRegistry'
import { RasterTileLayer } from './RasterTileLayer'
import { VectorTileLayer } from './VectorTileLayer'

export interface MapLayerViewProps {
  readonly item: DrawItem
  readonly order: number
  readonly demo: boolean
  readonly now: () => number
  readonly registry: PickRegistry
  /** Tile URL templates published by raster services, by map layer id (smoke). */
  readonly serviceTiles: ReadonlyMap<string, string>
  /** Forecast hour for hourly raster sources (layer state; null = the server's current hour). */
  readonly forecastHour?: number | null
}

/** The one generic renderer: a config map layer becomes a Leaflet layer by its paint `type`. */
export function MapLayerView({
  item,
  order,
  demo,
  now,
  registry,
  serviceTiles,
  forecastHour = null,
}: MapLayerViewProps) {
  const mapLayer = mapLayerById(item.mapLayerId)
  const source = sourceById(mapLayer.source)
  // Keyed by content: the draw list is rebuilt on every sidebar change, the style (and its layer) must not be.
  const signature = JSON.stringify({ id: item.mapLayerId, anyOf: item.anyOf, allOf: item.allOf })
  const style = useMemo(() => {
    const { id, anyOf, allOf } = JSON.parse(signature) as { id: string } & CompileOptions
    return compilePaintStyle(mapLayerById(id), { anyOf, allOf })
  }, [signature])
  const override = item.key.startsWith('override/')
  const pane = paneFor(style.type, override)
  switch (style.type) {
    case 'line':
    case 'fill':
    case 'circle':
    case 'icon':
      return (
        <VectorTileLayer
          drawKey={item.key}
          mapLayer={mapLayer}
          source={source}
          style={style}
          demo={demo}
          opacity={item.intensity}
          pane={pane}
          order={order}
          now={now}
          registry={registry}
        />
      )
    case 'raster':
      return (
        <RasterTileLayer
          url={
            serviceTiles.get(mapLayer.id) ??
            withForecastHour(tileUrlTemplate(source, demo), source, forecastHour)
          }
          opacity={style.opacity * item.intensity}
          pane={pane}
          minZoom={source.minzoom}
          maxNativeZoom={source.maxzoom}
          tileSize={source.tileSize}
          className={`el-layer-${mapLayer.id}`}
        />
      )
    case 'particles':
      return (
        <WindParticleLayer
          mapLayer={mapLayer}
          source={source}
          opacity={style.opacity * item.intensity}
          pane={pane}
        />
      )
    default: {
      const unhandled: never = style.type
      throw new Error(`No renderer for paint type ${String(unhandled)}`)
    }
  }
}
