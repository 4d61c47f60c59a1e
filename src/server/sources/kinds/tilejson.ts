import { gunzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import type { TilejsonSource } from '../../../shared/config'
import { noQuery } from '../../http/schemas'
import { TILE_PARAMS_SCHEMA, type TileParams } from '../../tiles/tileMath'
import { UpstreamFailure } from '../fetchUpstream'
import { archiveError, fetchFor, filledUrl, type KindContext } from './archive'
import { refuseTileAddress } from '../tileAddress'

/** What we read of a TileJSON document (or of a direct template: the template alone). */
export interface TileSet {
  /** The upstream tile template, absolute, with {z}/{x}/{y}. */
  readonly template: string
  readonly minzoom?: number
  readonly maxzoom?: number
  readonly vectorLayers: readonly { id: string; fields?: Record<string, string> }[]
}

/** Reads a TileJSON document: its first `tiles` template (relative to the document), zooms, vector_layers. */
export function parseTileJson(body: Buffer, documentUrl: URL): TileSet {
  let doc: unknown
  try {
    doc = JSON.parse(body.toString('utf8'))
  } catch {
    throw new UpstreamFailure(502, 'the TileJSON document is not JSON')
  }
  const d = (doc ?? {}) as { tiles?: unknown; minzoom?: unknown; maxzoom?: unknown; vector_layers?: unknown }
  const first = Array.isArray(d.tiles) ? d.tiles[0] : undefined
  if (typeof first !== 'string' || !URL.canParse(first, documentUrl)) {
    throw new UpstreamFailure(502, 'the TileJSON document has no tiles template')
  }
  // URL() would encode the braces; keep them by resolving with placeholders swapped out and back.
  const template = new URL(first.replace(/\{([zxy])\}/g, 'TILE_$1_'), documentUrl).href.replace(
    /TILE_([zxy])_/g,
    '{$1}',
  )
  const layers = Array.isArray(d.vector_layers)
    ? d.vector_layers.filter((l): l is { id: string } => typeof (l as { id?: unknown })?.id === 'string')
    : []
  return {
    template,
    ...(typeof d.minzoom === 'number' ? { minzoom: d.minzoom } : {}),
    ...(typeof d.maxzoom === 'number' ? { maxzoom: d.maxzoom } : {}),
    vectorLayers: layers.map((l) => ({
      id: l.id,
      ...('fields' in l ? { fields: l.fields as Record<string, string> } : {}),
    })),
  }
}

const VECTOR_TYPES = /^(application\/(vnd\.mapbox-vector-tile|x-protobuf|protobuf|octet-stream))\b/i

/**
 * `GET /api/sources/<id>/tiles/{z}/{x}/{y}`: another server's vector tile (from its TileJSON's
 * template or the direct template), un-gzipped, as `application/vnd.mapbox-vector-tile`; an
 * upstream 404 or 204 is an empty tile (204). `GET /api/sources/<id>/tilejson`: what we read of
 * the TileJSON (zooms and vector_layers), with our own tile URL.
 */
export function tilejsonRoutes(app: FastifyInstance, ctx: KindContext, source: TilejsonSource): void {
  const base = `/api/sources/${source.id}`
  const direct = /\{z\}/.test(source.url)
  const tileSet = async (): Promise<TileSet> => {
    const url = filledUrl(source.url, ctx.env)
    if (direct) return { template: url.href.replace(/%7B([zxy])%7D/gi, '{$1}'), vectorLayers: [] }
    const got = await fetchFor(ctx, source, url)
    if (got.status !== 200)
      throw new UpstreamFailure(502, `the TileJSON document answered HTTP ${got.status}`)
    return parseTileJson(got.body, url)
  }
  app.get<{ Params: TileParams }>(
    `${base}/tiles/:z/:x/:y`,
    { schema: { params: TILE_PARAMS_SCHEMA, querystring: noQuery }, logLevel: 'warn' },
    async (request, reply) => {
      const { z, x, y } = request.params
      const refused = refuseTileAddress(reply, source, z, x, y)
      if (refused) return refused
      try {
        const set = await tileSet()
        const url = new URL(
          set.template.replaceAll('{z}', String(z)).replaceAll('{x}', String(x)).replaceAll('{y}', String(y)),
        )
        const got = await fetchFor(ctx, source, url)
        if (got.status === 404 || got.status === 204) return reply.code(204).send()
        if (got.status !== 200) throw new UpstreamFailure(502, `upstream answered HTTP ${got.status}`)
        const gzipped = got.body.length >= 2 && got.body[0] === 0x1f && got.body[1] === 0x8b
        if (!gzipped && got.contentType !== undefined && !VECTOR_TYPES.test(got.contentType)) {
          throw new UpstreamFailure(502, `upstream answered ${got.contentType}, not a vector tile`)
        }
        let body = got.body
        try {
          if (gzipped) body = gunzipSync(body)
        } catch {
          throw new UpstreamFailure(502, 'the upstream tile is not readable gzip')
        }
        reply.header('Cache-Control', 'private, max-age=60')
        if (body.length === 0) return reply.code(204).send()
        return reply.type('application/vnd.mapbox-vector-tile').send(body)
      } catch (e) {
        return archiveError(request, reply, source, e)
      }
    },
  )
  app.get(`${base}/tilejson`, { schema: { querystring: noQuery } }, async (request, reply) => {
    try {
      const set = await tileSet()
      return reply.header('Cache-Control', 'private, no-cache').send({
        tilejson: '3.0.0',
        tiles: [`${base}/tiles/{z}/{x}/{y}`],
        minzoom: source.minzoom,
        maxzoom: source.maxzoom,
        vector_layers: set.vectorLayers,
        attribution: source.attribution,
      })
    } catch (e) {
      return archiveError(request, reply, source, e)
    }
  })
}
