import type { PngSource, Source } from '../../../shared/config'
import type { ProxiedRasterSource } from './tileUrlTemplate'
import { withForecastHour } from './hourlyTileUrl'
import { proxiedTileUrl, tileUrlTemplate } from './tileUrlTemplate'

/** What a Leaflet tile layer needs to draw a raster paint. */
export interface RasterTileSpec {
  readonly url: string
  readonly minZoom: number
  readonly maxNativeZoom: number
  readonly tileSize: number
  readonly attribution?: string
}

/**
 * The tile layer of a `raster` paint by its source kind: our own png grid tiles (with the forecast
 * hour), or another server's xyz/wms tiles through our proxy (never the upstream URL: credentials
 * and the CSP stay on our side). Exhaustive over the raster source kinds.
 */
export function rasterTileSpec(
  source: PngSource | ProxiedRasterSource,
  demo: boolean,
  forecastHour: number | null,
): RasterTileSpec {
  switch (source.type) {
    case 'png':
      return {
        url: withForecastHour(tileUrlTemplate(source, demo), source, forecastHour),
        minZoom: source.minzoom,
        maxNativeZoom: source.maxzoom,
        tileSize: source.tileSize,
      }
    case 'xyz':
    case 'wms':
    case 'wmts':
    case 'arcgis-mapserver':
    case 'pmtiles':
    case 'cog':
      return {
        url: proxiedTileUrl(source),
        minZoom: source.minzoom,
        maxNativeZoom: source.maxzoom,
        tileSize: 256,
        attribution: source.attribution,
      }
    default: {
      const unhandled: never = source
      throw new Error(`No raster tiles for source ${JSON.stringify(unhandled)}`)
    }
  }
}

/** The source of a raster paint (png, xyz or wms); any other kind is a config error (throws). */
export function rasterSource(source: Source): PngSource | ProxiedRasterSource {
  if (
    source.type === 'png' ||
    source.type === 'xyz' ||
    source.type === 'wms' ||
    source.type === 'wmts' ||
    source.type === 'arcgis-mapserver' ||
    source.type === 'pmtiles' ||
    source.type === 'cog'
  )
    return source
  throw new Error(
    `Source '${source.id}' in config/layers.yaml is ${source.type}, not png, xyz, wms, wmts or arcgis-mapserver`,
  )
}
