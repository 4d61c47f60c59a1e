import type { ArcgisMapServerSource, WmsSource, WmtsSource, XyzSource } from '../../shared/config'

/** Another server's raster source, reached through the proxy /api/sources/<id>/. */
export type ExternalSource = XyzSource | WmsSource | WmtsSource | ArcgisMapServerSource

/** Source kinds the proxy serves. */
export function isExternalSource(s: { readonly type: string }): s is ExternalSource {
  return s.type === 'xyz' || s.type === 'wms' || s.type === 'wmts' || s.type === 'arcgis-mapserver'
}

/** A `${NAME}` placeholder whose environment variable is not set (the source is misconfigured). */
export class MissingVariable extends Error {}

const WHOLE_PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/

/**
 * Fills `${NAME}` from the environment (URL-encoded when `encode`, except a text that is one
 * placeholder: `url: '${WMS_URL}'` is the whole URL as the variable says); throws MissingVariable.
 */
export function fillEnv(text: string, env: NodeJS.ProcessEnv, encode: boolean): string {
  if (WHOLE_PLACEHOLDER.test(text)) encode = false
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => {
    const v = env[name]
    if (v === undefined || v === '')
      throw new MissingVariable(`environment variable ${name} is not set (needed by this source)`)
    return encode ? encodeURIComponent(v) : v
  })
}

/** The upstream host (host:port) of a source: the only one its proxy may reach. */
export function allowedHost(source: ExternalSource, env: NodeJS.ProcessEnv): string {
  return new URL(fillEnv(source.url, env, true)).host
}

/** The credentials the YAML names: headers (server-side only) with env placeholders filled. */
export function upstreamHeaders(source: ExternalSource, env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(source.headers ?? {}).map(([k, v]) => [k, fillEnv(v, env, false)]))
}

function withQuery(url: URL, source: ExternalSource, env: NodeJS.ProcessEnv): URL {
  for (const [k, v] of Object.entries(source.query ?? {})) url.searchParams.set(k, fillEnv(v, env, false))
  return url
}

/** Half the width of the EPSG:3857 world, in metres. */
const HALF_WORLD = 20037508.342789244

/** The EPSG:3857 box of tile z/x/y: [minx, miny, maxx, maxy]. */
export function tileBbox3857(z: number, x: number, y: number): [number, number, number, number] {
  const size = (2 * HALF_WORLD) / 2 ** z
  return [
    -HALF_WORLD + x * size,
    HALF_WORLD - (y + 1) * size,
    -HALF_WORLD + (x + 1) * size,
    HALF_WORLD - y * size,
  ]
}

/** The upstream URL of tile z/x/y of an xyz source (its template filled) or a WMS (GetMap for the tile's box). */
export function wmsOrXyzTileUrl(
  source: XyzSource | WmsSource,
  z: number,
  x: number,
  y: number,
  env: NodeJS.ProcessEnv,
): URL {
  if (source.type === 'xyz') {
    const filled = fillEnv(source.url, env, true)
      .replaceAll('{z}', String(z))
      .replaceAll('{x}', String(x))
      .replaceAll('{y}', String(y))
    return withQuery(new URL(filled), source, env)
  }
  const url = new URL(fillEnv(source.url, env, true))
  const version = source.version ?? '1.3.0'
  const params: Record<string, string> = {
    ...source.params,
    SERVICE: 'WMS',
    REQUEST: 'GetMap',
    VERSION: version,
    LAYERS: source.layers,
    STYLES: source.styles ?? '',
    FORMAT: source.format ?? 'image/png',
    TRANSPARENT: String(source.transparent ?? true).toUpperCase(),
    [version === '1.3.0' ? 'CRS' : 'SRS']: 'EPSG:3857',
    BBOX: tileBbox3857(z, x, y)
      .map((v) => v.toFixed(2))
      .join(','),
    WIDTH: '256',
    HEIGHT: '256',
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return withQuery(url, source, env)
}

/** The GetCapabilities URL of a WMS source (its status probe). */
export function wmsCapabilitiesUrl(source: WmsSource, env: NodeJS.ProcessEnv): URL {
  const url = new URL(fillEnv(source.url, env, true))
  const params = { SERVICE: 'WMS', REQUEST: 'GetCapabilities', VERSION: source.version ?? '1.3.0' }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return withQuery(url, source, env)
}

/** The upstream URL of a WMS GetLegendGraphic for the source's (first) layer. */
export function legendUrl(source: WmsSource, env: NodeJS.ProcessEnv): URL {
  const url = new URL(fillEnv(source.url, env, true))
  const params: Record<string, string> = {
    SERVICE: 'WMS',
    REQUEST: 'GetLegendGraphic',
    VERSION: source.version ?? '1.3.0',
    LAYER: source.layers.split(',')[0]!,
    FORMAT: 'image/png',
    // WMS 1.3.0 servers (MapServer) require the SLD version of GetLegendGraphic.
    ...(source.version === '1.1.1' ? {} : { SLD_VERSION: '1.1.0' }),
    ...(source.styles ? { STYLE: source.styles.split(',')[0]! } : {}),
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return withQuery(url, source, env)
}

/** The tile holding a point at zoom z and the point's pixel in it (256-px tiles, Web Mercator). */
export function tilePixel(
  lon: number,
  lat: number,
  z: number,
): { x: number; y: number; i: number; j: number } {
  const n = 2 ** z
  const s = Math.sin((lat * Math.PI) / 180)
  const fx = Math.min(((lon + 180) / 360) * n, n - 1e-9)
  const fy = Math.min(Math.max((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n, 0), n - 1e-9)
  const x = Math.floor(fx)
  const y = Math.floor(fy)
  return { x, y, i: Math.floor((fx - x) * 256), j: Math.floor((fy - y) * 256) }
}

/** The upstream URL of a WMS GetFeatureInfo at a point: the GetMap of its tile, queried at its pixel. */
export function featureInfoUrl(
  source: WmsSource,
  lon: number,
  lat: number,
  z: number,
  env: NodeJS.ProcessEnv,
): URL {
  const { x, y, i, j } = tilePixel(lon, lat, z)
  const url = wmsOrXyzTileUrl(source, z, x, y, env)
  const v130 = (source.version ?? '1.3.0') === '1.3.0'
  const params: Record<string, string> = {
    REQUEST: 'GetFeatureInfo',
    QUERY_LAYERS: source.layers,
    INFO_FORMAT: source.infoFormat ?? 'application/json',
    FEATURE_COUNT: '10',
    [v130 ? 'I' : 'X']: String(i),
    [v130 ? 'J' : 'Y']: String(j),
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return url
}
