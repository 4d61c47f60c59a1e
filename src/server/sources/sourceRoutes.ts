import { join } from 'node:path'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { layersConfig } from '../../shared/config'
import { declareRoutes } from '../auth/routeAuth'
import { errorCodeOf, notFound } from '../http/httpErrors'
import { noQuery } from '../http/schemas'
import { MAX_TILE_ZOOM, TILE_PARAMS_SCHEMA, type TileParams } from '../tiles/tileMath'
import { parseFeatureInfo, UnreadableInfo, type InfoAnswer, type InfoFeature } from './featureInfo'
import { fetchUpstream, UpstreamFailure } from './fetchUpstream'
import {
  arcgisIdentifyUrl,
  arcgisLegendEntries,
  arcgisLegendUrl,
  type ArcgisLegendEntry,
} from './kinds/arcgisMapServer'
import { dropArcgisToken, isTokenRefusal } from './kinds/arcgisToken'
import { featureProbe, featureRoutes } from './kinds/featureRoutes'
import { isFeatureSource, type FeatureSource } from './kinds/featureUpstream'
import { archiveProbe, archiveRoutes } from './kinds/archiveRoutes'
import { isArchiveSource, type ArchiveSource } from './kinds/archive'
import { SourceCache, type ProxyResult, type SourceCacheOptions } from './sourceCache'
import { SourceHealth } from './sourceHealth'
import { isConfigured, sourceStatusRoute } from './sourceStatus'
import {
  allowedHost,
  isExternalSource,
  featureInfoUrl,
  legendUrl,
  MissingVariable,
  upstreamHeaders,
  type ExternalSource,
} from './upstreamUrl'
import { tileUrl } from './tileUrl'
import { rasterProbe } from './rasterProbe'
import { refuseTileAddress } from './tileAddress'

export interface SourceRoutesOptions {
  /** The external sources served (default: the xyz and wms sources of config/layers.yaml). */
  readonly sources?: readonly ExternalSource[]
  /** The feature sources served as vector tiles and records (default: those of config/layers.yaml). */
  readonly featureSources?: readonly FeatureSource[]
  /** The tilejson, pmtiles and cog sources served (default: those of config/layers.yaml). */
  readonly archiveSources?: readonly ArchiveSource[]
  /** The directory a pmtiles `file` is read from (default EMBERLINE_ARCHIVE_DIR, else <DATA_DIR>/archives). */
  readonly archiveDir?: string
  /** Where `${NAME}` placeholders are read (default process.env). */
  readonly env?: NodeJS.ProcessEnv
  readonly cache?: SourceCacheOptions
}

interface InfoQuery {
  lon: number
  lat: number
  z: number
}

const infoQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['lon', 'lat', 'z'],
  properties: {
    lon: { type: 'number', minimum: -180, maximum: 180, description: 'longitude (WGS 84)' },
    lat: {
      type: 'number',
      minimum: -85.0511,
      maximum: 85.0511,
      description: 'latitude (WGS 84, Web Mercator range)',
    },
    z: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_TILE_ZOOM,
      description: 'map zoom the point was clicked at',
    },
  },
} as const

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_MAX_BYTES = 5_000_000
const STALE_MESSAGE = 'the upstream does not answer; cached data is served'

/**
 * `GET /api/sources/<id>/tiles/{z}/{x}/{y}` for every xyz and wms source of the catalogue (for
 * wms our server builds the GetMap of the tile's EPSG:3857 box) and `GET /api/sources/<id>/legend`
 * and `GET /api/sources/<id>/info?lon=&lat=&z=` for wms (GetLegendGraphic, GetFeatureInfo at the
 * clicked pixel of the tile at z): the upstream is fetched with the source's credentials, through the
 * host allow-list, timeout, size cap and cache of this folder. Session check as our own tiles.
 */
export async function sourceRoutes(app: FastifyInstance, opts: SourceRoutesOptions): Promise<void> {
  declareRoutes(app, { sessionCookie: true })
  const env = opts.env ?? process.env
  const cache = new SourceCache(opts.cache)
  const allSources = opts.sources ?? layersConfig.sources.filter(isExternalSource)
  const allFeatureSources = opts.featureSources ?? layersConfig.sources.filter(isFeatureSource)
  // A source whose `${NAME}` url is unset is switched off: no routes (404), listed as not configured.
  const sources = allSources.filter((s) => isConfigured(s, env))
  const featureSources = allFeatureSources.filter((s) => isConfigured(s, env))
  const health = new SourceHealth()
  // A kept answer served because the upstream failed: the source is down, though the caller got data.
  cache.onStale = (key) => health.failed(key.slice(0, key.indexOf(' ')), STALE_MESSAGE)
  featureRoutes(app, featureSources, env, cache, health)
  const allArchives = opts.archiveSources ?? layersConfig.sources.filter(isArchiveSource)
  const archives = allArchives.filter((s) => isConfigured(s, env))
  const archiveDir = opts.archiveDir ?? env.EMBERLINE_ARCHIVE_DIR ?? join(env.DATA_DIR ?? './var', 'archives')
  archiveRoutes(app, { cache, health, env, archiveDir }, archives)
  const ctx = { cache, health, env, archiveDir }
  const probes = new Map([
    ...archives.flatMap((s) => {
      const probe = archiveProbe(ctx, s)
      return probe ? [[s.id, probe] as const] : []
    }),
    ...featureSources.map((s) => [s.id, featureProbe(s, env, cache, health)] as const),
    ...sources.map((s) => [s.id, rasterProbe(s, env, health)] as const),
  ])
  const probeAfterMs = Number(env.EMBERLINE_SOURCE_PROBE_MS ?? 15_000)
  sourceStatusRoute(
    app,
    health,
    [...allSources, ...allArchives, ...allFeatureSources],
    env,
    probes,
    probeAfterMs,
  )
  for (const source of sources) {
    const base = `/api/sources/${source.id}`
    app.get<{ Params: TileParams }>(
      `${base}/tiles/:z/:x/:y`,
      { schema: { params: TILE_PARAMS_SCHEMA, querystring: noQuery }, logLevel: 'warn' },
      async (request, reply) => {
        const { z, x, y } = request.params
        const refused = refuseTileAddress(reply, source, z, x, y)
        if (refused) return refused
        return proxy(request, reply, cache, health, source, env, () => tileUrl(source, z, x, y, env))
      },
    )
    if (source.type !== 'arcgis-mapserver' && source.type !== 'wms') continue
    // The legend: WMS GetLegendGraphic as an image; the ArcGIS legend JSON as our entries.
    app.get(`${base}/legend`, { schema: { querystring: noQuery } }, async (request, reply) => {
      if (source.type === 'wms')
        return proxy(request, reply, cache, health, source, env, () => legendUrl(source, env))
      const result = await fetchCached(request, reply, cache, health, source, env, () =>
        arcgisLegendUrl(source, env),
      )
      if (!('answer' in result)) return result
      let entries: ArcgisLegendEntry[]
      try {
        entries = arcgisLegendEntries(result.answer, source.layers)
      } catch (e) {
        if (e instanceof UpstreamFailure) return upstreamError(request, reply, source, 502, e.message)
        throw e
      }
      return reply.header('Cache-Control', 'private, max-age=300').send({ source: source.id, entries })
    })
    // The popup: WMS GetFeatureInfo or ArcGIS identify at the clicked point, as our JSON.
    app.get<{ Querystring: InfoQuery }>(
      `${base}/info`,
      { schema: { querystring: infoQuery } },
      async (request, reply) => {
        const { lon, lat, z } = request.query
        return info(request, reply, cache, health, source, env, () =>
          source.type === 'wms'
            ? featureInfoUrl(source, lon, lat, z, env)
            : arcgisIdentifyUrl(source, lon, lat, z, env),
        )
      },
    )
  }
}

/**
 * Fetches (or serves from cache) one upstream URL: its 200 answer, or the reply already sent (a
 * JSON 502/504, the upstream's 404 or 204).
 */
async function fetchCached(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: SourceCache,
  health: SourceHealth,
  source: ExternalSource,
  env: NodeJS.ProcessEnv,
  upstreamUrl: () => URL | Promise<URL>,
): Promise<ProxyResult | FastifyReply> {
  let result: ProxyResult
  try {
    for (let attempt = 0; ; attempt++) {
      const url = await upstreamUrl()
      const host = allowedHost(source, env)
      const headers = upstreamHeaders(source, env)
      result = await cache.get(`${source.id} ${url.href}`, (conditional) =>
        fetchUpstream({
          url,
          allowedHost: host,
          headers: { ...headers, ...conditional },
          timeoutMs: source.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBytes: source.maxBytes ?? DEFAULT_MAX_BYTES,
          allowPrivateNetwork: source.allowPrivateNetwork === true,
        }),
      )
      // An ArcGIS token the server no longer takes (498/499): exchange a new one, once.
      const refused = source.type === 'arcgis-mapserver' && isTokenRefusal(result.answer)
      if (!refused || attempt > 0 || source.type !== 'arcgis-mapserver' || !source.tokenExchange) break
      dropArcgisToken(source)
    }
  } catch (e) {
    health.failed(source.id, e instanceof Error ? e.message : String(e))
    if (e instanceof UpstreamFailure) return upstreamError(request, reply, source, e.statusCode, e.message)
    if (e instanceof MissingVariable) return upstreamError(request, reply, source, 502, e.message)
    // Anything else is the source's configuration (a URL that does not parse once filled): still 502.
    request.log.error({ err: e, source: source.id }, 'source request failed')
    return upstreamError(request, reply, source, 502, 'the request to this source could not be made')
  }
  const { answer, cache: how } = result
  reply.header('X-Source-Cache', how)
  if (how === 'stale') health.failed(source.id, STALE_MESSAGE)
  else if (answer.status >= 500) health.failed(source.id, `upstream answered HTTP ${answer.status}`)
  else health.succeeded(source.id)
  if (answer.status === 404) return notFound(reply, `upstream of source ${source.id} has no such tile`)
  if (answer.status === 204) return reply.code(204).send()
  if (answer.status !== 200) {
    return upstreamError(request, reply, source, 502, `upstream answered HTTP ${answer.status}`)
  }
  return result
}

/** Fetches (or serves from cache) one upstream image and answers with its bytes or a JSON 502/504. */
async function proxy(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: SourceCache,
  health: SourceHealth,
  source: ExternalSource,
  env: NodeJS.ProcessEnv,
  upstreamUrl: () => URL | Promise<URL>,
): Promise<FastifyReply> {
  const result = await fetchCached(request, reply, cache, health, source, env, upstreamUrl)
  if (!('answer' in result)) return result
  const { answer } = result
  const maxAge = Math.max(0, Math.floor((answer.freshUntil - Date.now()) / 1000))
  // Private: the answer sits behind our session check, so no shared cache may keep it.
  reply.header('Cache-Control', answer.noStore ? 'no-store' : `private, max-age=${maxAge}`)
  if (answer.etag) reply.header('ETag', answer.etag)
  if (answer.lastModified) reply.header('Last-Modified', answer.lastModified)
  if (answer.etag && request.headers['if-none-match'] === answer.etag) return reply.code(304).send()
  const type = servedType(answer.contentType)
  if (type === null) {
    const what = answer.contentType ?? 'no content type'
    return upstreamError(request, reply, source, 502, `upstream answered ${what}, not an image`)
  }
  reply.type(type)
  return reply.code(200).send(answer.body)
}

/** A point query upstream (GetFeatureInfo, identify) answered as our popup JSON (featureInfo.ts). */
async function info(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: SourceCache,
  health: SourceHealth,
  source: ExternalSource,
  env: NodeJS.ProcessEnv,
  upstreamUrl: () => URL | Promise<URL>,
): Promise<FastifyReply> {
  const result = await fetchCached(request, reply, cache, health, source, env, upstreamUrl)
  if (!('answer' in result)) return result
  let features: InfoFeature[]
  try {
    features = parseFeatureInfo(result.answer.body, result.answer.contentType)
  } catch (e) {
    if (e instanceof UnreadableInfo) return upstreamError(request, reply, source, 502, e.message)
    throw e
  }
  const answer: InfoAnswer = { source: source.id, features }
  return reply.header('Cache-Control', 'private, no-cache').send(answer)
}

function upstreamError(
  request: FastifyRequest,
  reply: FastifyReply,
  source: ExternalSource,
  status: 502 | 504,
  message: string,
): FastifyReply {
  request.log.warn({ source: source.id, status }, message)
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .send({ error: errorCodeOf(status), source: source.id, message })
}

/**
 * The content type our origin serves an upstream image with: tiles and legends must be images (a
 * WMS ServiceException or an HTML error page is a 502, not a broken tile), so no upstream HTML or
 * script ever runs under our origin. (Feature info is re-encoded as our JSON by `info`.)
 */
function servedType(contentType: string | undefined): string | null {
  return contentType && /^image\//i.test(contentType) ? contentType : null
}
