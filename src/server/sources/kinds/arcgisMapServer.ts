import type { ArcgisMapServerSource } from '../../../shared/config'
import { UpstreamFailure, type UpstreamAnswer } from '../fetchUpstream'
import { fillEnv, tileBbox3857, tilePixel } from '../upstreamUrl'
import { dropArcgisToken, isTokenRefusal, withArcgisToken } from './arcgisToken'
import { fetchDocument, Memo } from './upstreamDocument'

/** What our tiles need of an ArcGIS MapServer service (from its service JSON). */
export interface ArcgisServicePlan {
  /** The cache level of each of our zooms when cached tiles are used; null → export. */
  readonly levelOfZoom: ReadonlyMap<number, number> | null
}

/** ArcGIS's scale of Web Mercator level 0 at 96 dpi. */
const Z0_SCALE_96DPI = 591657527.591555
const HALF_WORLD = 20037508.342789244

interface ServiceJson {
  readonly tileInfo?: {
    readonly rows?: number
    readonly cols?: number
    readonly origin?: { x?: number; y?: number }
    readonly spatialReference?: { wkid?: number; latestWkid?: number }
    readonly lods?: readonly { level: number; scale: number }[]
  }
  readonly singleFusedMapCache?: boolean
  readonly error?: { code?: number; message?: string }
}

/** The levels of a cached service's tileInfo matching our zooms, or null (not EPSG:3857 / not 256 px / a zoom missing). */
export function cacheLevels(
  info: ServiceJson['tileInfo'],
  minzoom: number,
  maxzoom: number,
): Map<number, number> | null {
  if (!info?.lods) return null
  const wkid = info.spatialReference?.latestWkid ?? info.spatialReference?.wkid
  if (wkid !== 3857 && wkid !== 102100) return null
  if (info.rows !== 256 || info.cols !== 256) return null
  if (Math.abs((info.origin?.x ?? 0) + HALF_WORLD) > 1 || Math.abs((info.origin?.y ?? 0) - HALF_WORLD) > 1)
    return null
  const out = new Map<number, number>()
  for (let z = minzoom; z <= maxzoom; z++) {
    const want = Z0_SCALE_96DPI / 2 ** z
    const lod = info.lods.find((l) => Math.abs(l.scale - want) / want < 0.01)
    if (!lod) return null
    out.set(z, lod.level)
  }
  return out
}

const serviceUrl = (source: ArcgisMapServerSource, env: NodeJS.ProcessEnv): string =>
  fillEnv(source.url, env, true).replace(/\/+$/, '')

async function withToken(url: URL, source: ArcgisMapServerSource, env: NodeJS.ProcessEnv): Promise<URL> {
  for (const [k, v] of Object.entries(source.query ?? {})) url.searchParams.set(k, fillEnv(v, env, false))
  return withArcgisToken(url, source, env)
}

/** The service JSON (…/MapServer?f=json), fetched once an hour per source. */
const services = new Memo<ServiceJson>(3_600_000, 30_000)

export async function arcgisServiceJson(
  source: ArcgisMapServerSource,
  env: NodeJS.ProcessEnv,
): Promise<ServiceJson> {
  return services.get(source.id, () => fetchArcgisServiceJson(source, env))
}

/**
 * The service JSON asked now (not the hour's memo; the status probe asks this): a refused token is
 * exchanged once; an answer that does not parse or an ArcGIS `{error}` body is an UpstreamFailure.
 */
export async function fetchArcgisServiceJson(
  source: ArcgisMapServerSource,
  env: NodeJS.ProcessEnv,
): Promise<ServiceJson> {
  const read = async () => {
    const url = await withToken(new URL(`${serviceUrl(source, env)}?f=json`), source, env)
    const body = await fetchDocument(source, env, url)
    if (isTokenRefusal({ status: 200, body })) return null
    try {
      return JSON.parse(body.toString('utf8')) as ServiceJson
    } catch {
      throw new UpstreamFailure(502, 'the ArcGIS service JSON does not parse')
    }
  }
  let json = await read()
  if (json === null) {
    dropArcgisToken(source)
    json = await read()
  }
  if (json === null) throw new UpstreamFailure(502, 'the ArcGIS server refused the token (498/499)')
  if (json.error) throw new UpstreamFailure(502, `ArcGIS error: ${json.error.message ?? json.error.code}`)
  return json
}

/** Cached tiles or export, as the YAML says or the service JSON allows. */
export async function arcgisPlan(
  source: ArcgisMapServerSource,
  env: NodeJS.ProcessEnv,
): Promise<ArcgisServicePlan> {
  if (source.tiles === 'export') return { levelOfZoom: null }
  const json = await arcgisServiceJson(source, env)
  const levels = cacheLevels(json.tileInfo, source.minzoom, source.maxzoom)
  if (source.tiles === 'cached' && levels === null)
    throw new UpstreamFailure(
      502,
      `the service's tile cache is not EPSG:3857 with 256-pixel standard levels for zooms ${source.minzoom}-${source.maxzoom}`,
    )
  return { levelOfZoom: levels }
}

/** Our tile z/x/y upstream: `/tile/{level}/{y}/{x}` of the cache, else `export` of the tile's box. */
export async function arcgisTileUrl(
  source: ArcgisMapServerSource,
  z: number,
  x: number,
  y: number,
  env: NodeJS.ProcessEnv,
): Promise<URL> {
  const plan = await arcgisPlan(source, env)
  const base = serviceUrl(source, env)
  const level = plan.levelOfZoom?.get(z)
  if (level !== undefined) return withToken(new URL(`${base}/tile/${level}/${y}/${x}`), source, env)
  const url = new URL(`${base}/export`)
  const params: Record<string, string> = {
    bbox: tileBbox3857(z, x, y)
      .map((v) => v.toFixed(2))
      .join(','),
    bboxSR: '3857',
    imageSR: '3857',
    size: '256,256',
    format: source.format ?? 'png32',
    transparent: 'true',
    f: 'image',
    ...(source.layers ? { layers: `show:${source.layers}` } : {}),
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return withToken(url, source, env)
}

/** `identify` at a point, as clicked at zoom z (the map extent and size of that point's tile). */
export async function arcgisIdentifyUrl(
  source: ArcgisMapServerSource,
  lon: number,
  lat: number,
  z: number,
  env: NodeJS.ProcessEnv,
): Promise<URL> {
  const { x, y } = tilePixel(lon, lat, z)
  const px = (lon * HALF_WORLD) / 180
  const py = (Math.log(Math.tan(((90 + lat) * Math.PI) / 360)) * HALF_WORLD) / Math.PI
  const url = new URL(`${serviceUrl(source, env)}/identify`)
  const params: Record<string, string> = {
    geometry: `${px.toFixed(2)},${py.toFixed(2)}`,
    geometryType: 'esriGeometryPoint',
    sr: '3857',
    layers: source.layers ? `all:${source.layers}` : 'visible',
    tolerance: '3',
    mapExtent: tileBbox3857(z, x, y)
      .map((v) => v.toFixed(2))
      .join(','),
    imageDisplay: '256,256,96',
    returnGeometry: 'false',
    f: 'json',
  }
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
  return withToken(url, source, env)
}

/** `legend?f=json` of the service. */
export async function arcgisLegendUrl(source: ArcgisMapServerSource, env: NodeJS.ProcessEnv): Promise<URL> {
  return withToken(new URL(`${serviceUrl(source, env)}/legend?f=json`), source, env)
}

/** One legend entry as the sidebar draws it: a label and its swatch as a data: URL. */
export interface ArcgisLegendEntry {
  readonly layer: string
  readonly label: string
  readonly image: string
}

export const MAX_LEGEND_ENTRIES = 100

/** The legend JSON's entries of the source's layers (all when `layers` is not given), bounded. */
export function arcgisLegendEntries(
  answer: UpstreamAnswer | { body: Buffer },
  layers?: string,
): ArcgisLegendEntry[] {
  let json: {
    layers?: {
      layerId?: number
      layerName?: string
      legend?: { label?: string; imageData?: string; contentType?: string }[]
    }[]
  }
  try {
    json = JSON.parse(answer.body.toString('utf8')) as typeof json
  } catch {
    throw new UpstreamFailure(502, 'the ArcGIS legend does not parse')
  }
  const wanted = layers ? new Set(layers.split(',').map(Number)) : null
  const out: ArcgisLegendEntry[] = []
  for (const l of json.layers ?? []) {
    if (wanted && !wanted.has(l.layerId ?? -1)) continue
    for (const e of l.legend ?? []) {
      if (out.length >= MAX_LEGEND_ENTRIES) return out
      const type = /^image\/(png|jpeg|gif)$/.test(e.contentType ?? '') ? e.contentType! : 'image/png'
      if (typeof e.imageData !== 'string' || !/^[A-Za-z0-9+/=]{1,200000}$/.test(e.imageData)) continue
      out.push({
        layer: String(l.layerName ?? l.layerId ?? '').slice(0, 200),
        label: String(e.label || l.layerName || '').slice(0, 200),
        image: `data:${type};base64,${e.imageData}`,
      })
    }
  }
  return out
}
