import type {
  ArcgisMapServerSource,
  CogSource,
  MvtSource,
  PngSource,
  PmtilesSource,
  WmsSource,
  WmtsSource,
  XyzSource,
} from '../../../shared/config'

/** Tile URL template of a source: `/api/tiles/<path or demoPath>/<mvt|png>/{z}/{x}/{y}`. */
export function tileUrlTemplate(source: MvtSource | PngSource, demo: boolean): string {
  const path = demo && source.demoPath ? source.demoPath : source.path
  return `/api/tiles/${path}/${source.type}/{z}/{x}/{y}`
}

/**
 * Tile URL template of another server's raster source: always our proxy
 * `/api/sources/<id>/tiles/{z}/{x}/{y}` (the upstream URL and its credentials stay on the server,
 * and the CSP keeps `img-src` to our origin).
 */
/** Raster sources of other servers, drawn from our proxy's tiles. */
export type ProxiedRasterSource =
  XyzSource | WmsSource | WmtsSource | ArcgisMapServerSource | PmtilesSource | CogSource

export function proxiedTileUrl(source: ProxiedRasterSource): string {
  return `/api/sources/${encodeURIComponent(source.id)}/tiles/{z}/{x}/{y}`
}
