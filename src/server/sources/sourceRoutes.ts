import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { layersConfig } from '../../shared/config'
import { declareRoutes } from '../auth/routeAuth'
import { badRequest, errorCodeOf, notFound } from '../http/httpErrors'
import { noQuery } from '../http/schemas'
import { isValidTile, MAX_TILE_ZOOM, TILE_PARAMS_SCHEMA, type TileParams } from '../tiles/tileMath'
import { fetchUpstream, UpstreamFailure } from './fetchUpstream'
import { SourceCache, type ProxyResult, type SourceCacheOptions } from './sourceCache'
import {
  allowedHost,
  isExternalSource,
  featureInfoUrl,
  legendUrl,
  MissingVariable,
  tileUrl,
  upstreamHeaders,
  type ExternalSource,
} from './upstreamUrl'

export interface SourceRoutesOptions {
  /** The external sources served (default: the xyz and wms sources of config/layers.yaml). */
  readonly sources?: readonly ExternalSource[]
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
  const sources = opts.sources ?? layersConfig.sources.filter(isExternalSource)
  for (const source of sources) {
    const base = `/api/sources/${source.id}`
    app.get<{ Params: TileParams }>(
      `${base}/tiles/:z/:x/:y`,
      { schema: { params: TILE_PARAMS_SCHEMA, querystring: noQuery }, logLevel: 'warn' },
      async (request, reply) => {
        const { z, x, y } = request.params
        if (!isValidTile(z, x, y)) {
          const which = x >= 2 ** z ? 'x' : 'y'
          return badRequest(reply, which, `${which} must be below ${2 ** z} at zoom ${z}`)
        }
        if (z < source.minzoom || z > source.maxzoom) {
          return notFound(reply, `${source.id} has tiles for zooms ${source.minzoom}-${source.maxzoom} only`)
        }
        return proxy(request, reply, cache, source, env, () => tileUrl(source, z, x, y, env), 'image')
      },
    )
    if (source.type === 'wms') {
      app.get(`${base}/legend`, { schema: { querystring: noQuery } }, async (request, reply) =>
        proxy(request, reply, cache, source, env, () => legendUrl(source, env), 'image'),
      )
      app.get<{ Querystring: InfoQuery }>(
        `${base}/info`,
        { schema: { querystring: infoQuery } },
        async (request, reply) => {
          const { lon, lat, z } = request.query
          return proxy(
            request,
            reply,
            cache,
            source,
            env,
            () => featureInfoUrl(source, lon, lat, z, env),
            'info',
          )
        },
      )
    }
  }
}

/** Fetches (or serves from cache) one upstream URL and answers with its bytes or a JSON 502/504. */
async function proxy(
  request: FastifyRequest,
  reply: FastifyReply,
  cache: SourceCache,
  source: ExternalSource,
  env: NodeJS.ProcessEnv,
  upstreamUrl: () => URL,
  expects: 'image' | 'info',
): Promise<FastifyReply> {
  let result: ProxyResult
  try {
    const url = upstreamUrl()
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
  } catch (e) {
    if (e instanceof UpstreamFailure) return upstreamError(request, reply, source, e.statusCode, e.message)
    if (e instanceof MissingVariable) return upstreamError(request, reply, source, 502, e.message)
    // Anything else is the source's configuration (a URL that does not parse once filled): still 502.
    request.log.error({ err: e, source: source.id }, 'source request failed')
    return upstreamError(request, reply, source, 502, 'the request to this source could not be made')
  }
  const { answer, cache: how } = result
  reply.header('X-Source-Cache', how)
  if (answer.status === 404) return notFound(reply, `upstream of source ${source.id} has no such tile`)
  if (answer.status === 204) return reply.code(204).send()
  if (answer.status !== 200) {
    return upstreamError(request, reply, source, 502, `upstream answered HTTP ${answer.status}`)
  }
  const maxAge = Math.max(0, Math.floor((answer.freshUntil - Date.now()) / 1000))
  // Private: the answer sits behind our session check, so no shared cache may keep it.
  reply.header('Cache-Control', answer.noStore ? 'no-store' : `private, max-age=${maxAge}`)
  if (answer.etag) reply.header('ETag', answer.etag)
  if (answer.lastModified) reply.header('Last-Modified', answer.lastModified)
  if (answer.etag && request.headers['if-none-match'] === answer.etag) return reply.code(304).send()
  const type = servedType(answer.contentType, expects)
  if (type === null) {
    const what = answer.contentType ?? 'no content type'
    return upstreamError(request, reply, source, 502, `upstream answered ${what}, not an image`)
  }
  reply.type(type)
  return reply.code(200).send(answer.body)
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

/** Feature-info types passed on as they are; anything else (HTML above all) is sent as plain text. */
const INFO_TYPES = /^(application\/(json|geo\+json|xml|vnd\.ogc\.gml)|text\/(xml|plain))\b/i

/**
 * The content type our origin serves an upstream answer with: tiles and legends must be images
 * (a WMS ServiceException or an HTML error page is a 502, not a broken tile); feature info keeps
 * JSON, XML, GML and plain text, and anything else becomes text/plain so no upstream HTML or
 * script ever runs under our origin.
 */
function servedType(contentType: string | undefined, expects: 'image' | 'info'): string | null {
  if (expects === 'image') return contentType && /^image\//i.test(contentType) ? contentType : null
  return contentType && INFO_TYPES.test(contentType) ? contentType : 'text/plain; charset=utf-8'
}
