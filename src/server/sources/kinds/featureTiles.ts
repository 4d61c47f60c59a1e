import type { Feature, FeatureCollection } from 'geojson'
import geojsonvt from 'geojson-vt'
import { fromGeojsonVt, type TileFeatureLike } from 'vt-pbf'
import { BUFFER, EXTENT } from '../../tiles/encodeSlice'
import { tileBounds } from '../../tiles/tileMath'
import { UpstreamFailure } from '../fetchUpstream'
import type { SourceCache } from '../sourceCache'
import { baseUrl, isObject, ogcJson, upstreamJson, type FeatureSource } from './featureUpstream'

/** Default most features one tile holds. */
export const DEFAULT_MAX_FEATURES_PER_TILE = 2000
/** Default features per upstream page (lowered to the server's maxRecordCount). */
const DEFAULT_PAGE_SIZE = 1000
/**
 * Most upstream pages read for one tile: every page read adds at least one feature (an empty page
 * ends the reading), so the feature cap bounds them; this bounds a server that pages one by one.
 */
const MAX_PAGES = 2500

export interface FeaturesInBox {
  readonly features: Feature[]
  /** The upstream had more features in the box than the tile's cap: only the first ones are kept. */
  readonly truncated: boolean
}

export interface FeatureTile {
  readonly pbf: Uint8Array
  readonly features: number
  readonly truncated: boolean
}

/** A box [west, south, east, north] in WGS 84, clamped to the world. */
type Box = [number, number, number, number]

const clampBox = ([w, s, e, n]: Box): Box => [
  Math.max(-180, w),
  Math.max(-90, s),
  Math.min(180, e),
  Math.min(90, n),
]

/** Reads the GeoJSON features of a FeatureCollection answer; anything else is a 502. */
export function featuresOf(json: unknown, what: string): Feature[] {
  if (!isObject(json) || !Array.isArray(json.features)) {
    throw new UpstreamFailure(502, `upstream ${what} is not a GeoJSON FeatureCollection`)
  }
  return (json.features as unknown[]).filter(
    (f): f is Feature => isObject(f) && isObject(f.geometry) && typeof f.geometry.type === 'string',
  )
}

/** ArcGIS layer metadata (`…/FeatureServer/N?f=json`): its page limit and object-id field. */
export async function arcgisLayerInfo(
  source: FeatureSource & { type: 'arcgis-featureserver' },
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
): Promise<{ maxRecordCount: number; objectIdField: string | null; fields: Map<string, string> }> {
  const url = baseUrl(source, env)
  url.searchParams.set('f', 'json')
  const { json } = await upstreamJson(source, env, cache, url)
  const info = isObject(json) ? json : {}
  const max = typeof info.maxRecordCount === 'number' && info.maxRecordCount > 0 ? info.maxRecordCount : 1000
  const fields = new Map<string, string>()
  for (const f of Array.isArray(info.fields) ? (info.fields as unknown[]) : []) {
    if (isObject(f) && typeof f.name === 'string') fields.set(f.name, String(f.type ?? ''))
  }
  const oid = typeof info.objectIdField === 'string' ? info.objectIdField : null
  return { maxRecordCount: max, objectIdField: oid, fields }
}

/** The ArcGIS query URL of the source with its `where` and `outFields`. */
export function arcgisQueryUrl(
  source: FeatureSource & { type: 'arcgis-featureserver' },
  env: NodeJS.ProcessEnv,
  where: string,
): URL {
  const url = baseUrl(source, env)
  url.pathname += '/query'
  url.searchParams.set('where', where)
  url.searchParams.set('outFields', source.outFields ?? '*')
  return url
}

async function arcgisInBox(
  source: FeatureSource & { type: 'arcgis-featureserver' },
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  box: Box,
  cap: number,
): Promise<FeaturesInBox> {
  const info = await arcgisLayerInfo(source, env, cache)
  const pageSize = Math.min(source.pageSize ?? DEFAULT_PAGE_SIZE, info.maxRecordCount)
  const features: Feature[] = []
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = arcgisQueryUrl(source, env, source.where ?? '1=1')
    const asked = Math.min(pageSize, cap + 1 - features.length)
    const params = {
      geometry: box.join(','),
      geometryType: 'esriGeometryEnvelope',
      inSR: '4326',
      spatialRel: 'esriSpatialRelIntersects',
      outSR: '4326',
      returnGeometry: 'true',
      resultOffset: String(features.length),
      resultRecordCount: String(asked),
      f: 'geojson',
    }
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
    const { json } = await upstreamJson(source, env, cache, url)
    const got = featuresOf(json, 'query answer')
    features.push(...got)
    if (features.length > cap) return { features: features.slice(0, cap), truncated: true }
    // ArcGIS says a page was cut by exceededTransferLimit (top level, or in `properties` of its
    // GeoJSON); a full page from a server that does not say so may also have a next one.
    const props = isObject(json) && isObject(json.properties) ? json.properties : {}
    const exceeded =
      (isObject(json) && json.exceededTransferLimit === true) || props.exceededTransferLimit === true
    if (got.length === 0 || (!exceeded && got.length < asked)) break
  }
  return { features, truncated: false }
}

/** The `next` link of an OGC API items answer (absolute), or null. */
export function nextLink(json: unknown, base: URL): URL | null {
  const links = isObject(json) && Array.isArray(json.links) ? (json.links as unknown[]) : []
  for (const link of links) {
    if (
      isObject(link) &&
      link.rel === 'next' &&
      typeof link.href === 'string' &&
      URL.canParse(link.href, base)
    ) {
      return new URL(link.href, base)
    }
  }
  return null
}

async function ogcInBox(
  source: FeatureSource & { type: 'ogc-features' },
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  box: Box,
  cap: number,
): Promise<FeaturesInBox> {
  let url: URL | null = baseUrl(source, env)
  url.pathname += '/items'
  url.searchParams.set('bbox', box.join(','))
  url.searchParams.set('limit', String(Math.min(source.pageSize ?? DEFAULT_PAGE_SIZE, cap + 1)))
  const features: Feature[] = []
  for (let page = 0; url && page < MAX_PAGES; page++) {
    const { json } = await ogcJson(source, env, cache, url)
    const got = featuresOf(json, 'items answer')
    features.push(...got)
    if (features.length > cap) return { features: features.slice(0, cap), truncated: true }
    url = got.length === 0 ? null : nextLink(json, url)
  }
  return { features, truncated: url !== null }
}

type TileIndex = ReturnType<typeof geojsonvt>
/** The tile index of each GeoJSON document, kept while the cache holds the same answer bytes. */
const geojsonIndexes = new WeakMap<Buffer, TileIndex>()

function indexOf(features: Feature[]): TileIndex {
  const fc: FeatureCollection = { type: 'FeatureCollection', features: features.map(flatProperties) }
  return geojsonvt(fc, {
    maxZoom: 24,
    indexMaxZoom: 0,
    indexMaxPoints: 0,
    tolerance: 1,
    extent: EXTENT,
    buffer: BUFFER,
  })
}

/** Vector tiles hold strings, numbers and booleans: nested values become their JSON text. */
function flatProperties(f: Feature): Feature {
  const props: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(f.properties ?? {})) {
    if (v === null || v === undefined) continue
    props[k] = typeof v === 'object' ? JSON.stringify(v) : v
  }
  return {
    type: 'Feature',
    geometry: f.geometry,
    properties: props,
    ...(f.id !== undefined ? { id: f.id } : {}),
  }
}

/** The MVT of cut tile z/x/y of an index, at most `cap` features (the first ones). */
function encode(layer: string, index: TileIndex, z: number, x: number, y: number, cap: number): FeatureTile {
  const tile = index.getTile(z, x, y)
  if (!tile || tile.features.length === 0) return { pbf: new Uint8Array(), features: 0, truncated: false }
  const features = tile.features.slice(0, cap) as unknown as TileFeatureLike[]
  const pbf = fromGeojsonVt({ [layer]: { features } }, { version: 2, extent: EXTENT })
  return { pbf, features: features.length, truncated: tile.features.length > cap }
}

/**
 * One vector tile (MVT, layer named after the source id, like our own tiles' dataset layer) of
 * another server's features: FeatureServer and OGC API are asked for the features intersecting
 * the tile's box (with the tile buffer), page by page up to `maxFeaturesPerTile` (then the first
 * ones are kept and `truncated` is set); a GeoJSON file is read whole once (while cached) and
 * cut from its index. Geometry is clipped and simplified by geojson-vt, encoded by vt-pbf as our
 * own tiles are.
 */
export async function featureTile(
  source: FeatureSource,
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  z: number,
  x: number,
  y: number,
): Promise<FeatureTile> {
  const cap = source.maxFeaturesPerTile ?? DEFAULT_MAX_FEATURES_PER_TILE
  if (source.type === 'geojson') {
    const { json, body } = await upstreamJson(source, env, cache, baseUrl(source, env))
    let index = geojsonIndexes.get(body)
    if (!index) {
      index = indexOf(featuresOf(json, 'document'))
      geojsonIndexes.set(body, index)
    }
    return encode(source.id, index, z, x, y, cap)
  }
  const box = clampBox(tileBounds(z, x, y, BUFFER / EXTENT))
  const found =
    source.type === 'arcgis-featureserver'
      ? await arcgisInBox(source, env, cache, box, cap)
      : await ogcInBox(source, env, cache, box, cap)
  if (found.features.length === 0) return { pbf: new Uint8Array(), features: 0, truncated: false }
  const tile = encode(source.id, indexOf(found.features), z, x, y, cap)
  return { ...tile, truncated: tile.truncated || found.truncated }
}
