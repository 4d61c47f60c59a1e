import { useMemo } from 'react'
import { mapLayerById, sourceById, sourceOfType } from '../../../shared/config'
import { compilePaintStyle, type CompileOptions } from '../style/compilePaintStyle'
import { WindParticleLayer } from '../wind/WindParticleLayer'
import type { DrawItem } from './drawList'
import { paneFor } from './panes'
import type { PickRegistry } from './pickRegistry'
import { RasterTileLayer } from './RasterTileLayer'
import { rasterSource, rasterTileSpec } from './rasterTileSpec'
import { vectorSource } from './vectorTileSpec'
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

/** Source kinds our own server draws; every other kind is read from another server. */
const OWN_SOURCES = new Set(['mvt', 'png', 'wind'])

/**
 * The one generic renderer: a config map layer becomes a Leaflet layer by its paint `type`. The switch
 * is exhaustive over the generated paint union, so a new paint kind fails to compile until it is drawn.
 */
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
  // Keyed by content: the draw list is rebuilt on every sidebar change, the style (and its layer) must not be.
  const signature = JSON.stringify({ id: item.mapLayerId, anyOf: item.anyOf, allOf: item.allOf })
  const style = useMemo(() => {
    const { id, anyOf, allOf } = JSON.parse(signature) as { id: string } & CompileOptions
    return compilePaintStyle(mapLayerById(id), { anyOf, allOf })
  }, [signature])
  const override = item.key.startsWith('override/')
  const pane = paneFor(style.type, override)
  const paint = mapLayer.paint
  const sourceType = sourceById(mapLayer.source).type
  const externalSource = OWN_SOURCES.has(sourceType) ? undefined : mapLayer.source
  switch (paint.type) {
    case 'line':
    case 'fill':
    case 'circle':
    case 'icon':
      return (
        <VectorTileLayer
          drawKey={item.key}
          mapLayer={mapLayer}
          source={vectorSource(sourceById(mapLayer.source))}
          style={style}
          demo={demo}
          opacity={item.intensity}
          pane={pane}
          order={order}
          now={now}
          registry={registry}
          externalSource={externalSource}
        />
      )
    case 'raster': {
      const spec = rasterTileSpec(rasterSource(sourceById(mapLayer.source)), demo, forecastHour)
      return (
        <RasterTileLayer
          url={serviceTiles.get(mapLayer.id) ?? spec.url}
          opacity={style.opacity * item.intensity}
          pane={pane}
          minZoom={spec.minZoom}
          maxNativeZoom={spec.maxNativeZoom}
          tileSize={spec.tileSize}
          attribution={spec.attribution}
          className={`el-layer-${mapLayer.id}`}
          order={order}
          externalSource={externalSource}
        />
      )
    }
    case 'particles':
      return (
        <WindParticleLayer
          mapLayer={mapLayer}
          source={sourceOfType(mapLayer.source, 'wind')}
          opacity={style.opacity * item.intensity}
          pane={pane}
        />
      )
    default: {
      const unhandled: never = paint
      throw new Error(`No renderer for paint ${JSON.stringify(unhandled)}`)
    }
  }
}
