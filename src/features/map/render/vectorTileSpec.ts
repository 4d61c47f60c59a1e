import type {
  ArcgisFeatureServerSource,
  GeojsonSource,
  MvtSource,
  OgcFeaturesSource,
  PmtilesSource,
  Source,
  TilejsonSource,
} from '../../../shared/config'
import { tileUrlTemplate } from './tileUrlTemplate'

/** A source a line, fill, circle or icon paint draws from: our own MVT or another server's features. */
export type VectorSource =
  MvtSource | ArcgisFeatureServerSource | OgcFeaturesSource | GeojsonSource | TilejsonSource | PmtilesSource

/** Narrows a source to one a vector paint draws (validate-config already refuses any other). */
export function vectorSource(source: Source): VectorSource {
  switch (source.type) {
    case 'mvt':
    case 'arcgis-featureserver':
    case 'ogc-features':
    case 'geojson':
    case 'tilejson':
    case 'pmtiles':
      return source
    default:
      throw new Error(`Source '${source.id}' in config/layers.yaml is ${source.type}, not a vector source`)
  }
}

export interface VectorTileSpec {
  readonly url: string
  readonly minZoom: number
  /** Highest zoom tiles are asked at; the map overzooms beyond it. */
  readonly maxDataZoom: number
  readonly tileSize: 256 | 512
}

/**
 * Where a vector layer's tiles come from: our own `/api/tiles/<path>/mvt/{z}/{x}/{y}`, or, for
 * another server's features (FeatureServer, OGC API, GeoJSON), our server's vector tiles of them,
 * or another server's vector tiles and PMTiles archives through our proxy
 * `/api/sources/<id>/tiles/{z}/{x}/{y}` (256 px: one upstream query per map tile).
 */
export function vectorTileSpec(source: VectorSource, demo: boolean): VectorTileSpec {
  if (source.type === 'mvt') {
    return {
      url: tileUrlTemplate(source, demo),
      minZoom: source.minzoom,
      maxDataZoom: source.maxzoom,
      tileSize: source.tileSize,
    }
  }
  return {
    url: `/api/sources/${encodeURIComponent(source.id)}/tiles/{z}/{x}/{y}`,
    minZoom: source.minzoom,
    maxDataZoom: source.maxzoom,
    tileSize: 256,
  }
}
