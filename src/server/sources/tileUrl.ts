import { arcgisTileUrl } from './kinds/arcgisMapServer'
import { wmtsTileUrl } from './kinds/wmts'
import { wmsOrXyzTileUrl, type ExternalSource } from './upstreamUrl'

/**
 * The upstream URL of tile z/x/y: the xyz template filled, a WMS GetMap for the tile's box, a WMTS
 * GetTile / REST tile of the matching matrix (kinds/wmts.ts), an ArcGIS cached tile or export
 * (kinds/arcgisMapServer.ts).
 */
export function tileUrl(
  source: ExternalSource,
  z: number,
  x: number,
  y: number,
  env: NodeJS.ProcessEnv,
): URL | Promise<URL> {
  if (source.type === 'wmts') return wmtsTileUrl(source, z, x, y, env)
  if (source.type === 'arcgis-mapserver') return arcgisTileUrl(source, z, x, y, env)
  return wmsOrXyzTileUrl(source, z, x, y, env)
}
