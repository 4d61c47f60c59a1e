import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { badRequest, errorCodeOf } from '../../http/httpErrors'
import { noQuery } from '../../http/schemas'
import { TILE_PARAMS_SCHEMA, type TileParams } from '../../tiles/tileMath'
import { UpstreamFailure } from '../fetchUpstream'
import type { SourceCache } from '../sourceCache'
import type { SourceHealth } from '../sourceHealth'
import { MissingVariable } from '../upstreamUrl'
import { featureRecords, RecordsRequestError } from './featureRecords'
import { arcgisLayerInfo, featureTile } from './featureTiles'
import { baseUrl, ogcJson, upstreamJson, type FeatureSource } from './featureUpstream'
import { refuseTileAddress } from '../tileAddress'

/** Most records one page may ask for. */
export const MAX_RECORDS_LIMIT = 1000
/** The largest records offset accepted. */
const MAX_RECORDS_OFFSET = 10_000_000

interface RecordsQuery {
  filters?: string[]
  limit?: number
  offset?: number
  sort?: string
}

const recordsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    filters: {
      type: 'array',
      items: { type: 'string', maxLength: 2000 },
      maxItems: 20,
      description: 'JSON {field, value, type?}; repeatable (as /api/data/<dataset>/records)',
    },
    limit: { type: 'integer', minimum: 1, maximum: MAX_RECORDS_LIMIT, default: 50 },
    offset: { type: 'integer', minimum: 0, maximum: MAX_RECORDS_OFFSET, default: 0 },
    sort: { type: 'string', maxLength: 200, description: 'field or -field (descending)' },
  },
} as const

/**
 * `GET /api/sources/<id>/tiles/{z}/{x}/{y}` (also `….mvt`) as MVT for each feature source
 * (arcgis-featureserver, ogc-features, geojson) and `GET /api/sources/<id>/records` for the first
 * two. Registered inside sourceRoutes (same session check).
 */
export function featureRoutes(
  app: FastifyInstance,
  sources: readonly FeatureSource[],
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  health: SourceHealth,
): void {
  for (const source of sources) {
    const base = `/api/sources/${source.id}`
    const tile = async (request: FastifyRequest<{ Params: TileParams }>, reply: FastifyReply) => {
      const { z, x, y } = request.params
      const refused = refuseTileAddress(reply, source, z, x, y)
      if (refused) return refused
      return guarded(request, reply, source, health, async () => {
        const built = await featureTile(source, env, cache, z, x, y)
        reply.header('Cache-Control', 'private, no-cache')
        if (built.truncated) reply.header('X-Source-Truncated', 'true')
        if (built.features === 0) return reply.code(204).send()
        return reply
          .code(200)
          .type('application/vnd.mapbox-vector-tile')
          .send(Buffer.from(built.pbf.buffer, built.pbf.byteOffset, built.pbf.byteLength))
      })
    }
    const opts = { schema: { params: TILE_PARAMS_SCHEMA, querystring: noQuery }, logLevel: 'warn' } as const
    app.get<{ Params: TileParams }>(`${base}/tiles/:z/:x/:y`, opts, tile)
    app.get<{ Params: TileParams }>(`${base}/tiles/:z/:x/:y.mvt`, opts, tile)
    if (source.type === 'geojson') continue
    app.get<{ Querystring: RecordsQuery }>(
      `${base}/records`,
      { schema: { querystring: recordsQuery } },
      async (request, reply) =>
        guarded(request, reply, source, health, async () => {
          const { filters = [], limit = 50, offset = 0, sort } = request.query
          const page = await featureRecords(source, env, cache, { filters, limit, offset, sort })
          reply.header('Cache-Control', 'private, no-cache')
          return page
        }),
    )
  }
}

/**
 * A cheap upstream request that tells whether a feature source answers, its outcome recorded in the
 * health record as a tile's would be: the layer JSON of a FeatureServer (`?f=json`), the collection
 * document of an OGC API, the GeoJSON document itself (then cached for the tiles, as the upstream allows).
 */
export function featureProbe(
  source: FeatureSource,
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  health: SourceHealth,
): () => Promise<unknown> {
  return async () => {
    try {
      await health.succeededUnlessFailed(source.id, async () => {
        if (source.type === 'arcgis-featureserver') await arcgisLayerInfo(source, env, cache)
        else if (source.type === 'ogc-features') await ogcJson(source, env, cache, baseUrl(source, env))
        else await upstreamJson(source, env, cache, baseUrl(source, env))
      })
    } catch (e) {
      health.failed(
        source.id,
        e instanceof UpstreamFailure || e instanceof MissingVariable ? e.message : String(e),
      )
    }
  }
}

/** Runs a handler; request mistakes are 400 naming the parameter, upstream failures 502/504 JSON. */
async function guarded(
  request: FastifyRequest,
  reply: FastifyReply,
  source: FeatureSource,
  health: SourceHealth,
  run: () => Promise<unknown>,
): Promise<unknown> {
  try {
    return await health.succeededUnlessFailed(source.id, run)
  } catch (e) {
    if (e instanceof RecordsRequestError) return badRequest(reply, e.parameter, e.message)
    const status = e instanceof UpstreamFailure ? e.statusCode : 502
    const message =
      e instanceof UpstreamFailure || e instanceof MissingVariable
        ? e.message
        : 'the request to this source could not be made'
    if (!(e instanceof UpstreamFailure || e instanceof MissingVariable)) {
      request.log.error({ err: e, source: source.id }, 'feature source request failed')
    }
    // The layer row's "unavailable" badge reads this (GET /api/sources/status).
    health.failed(source.id, message)
    request.log.warn({ source: source.id, status }, message)
    return reply
      .code(status)
      .header('Cache-Control', 'no-store')
      .send({ error: errorCodeOf(status), source: source.id, message })
  }
}
