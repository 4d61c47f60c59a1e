import zlib from 'node:zlib'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { VectorSourceDef } from '../store/catalog'
import { badRequest, notFound } from '../http/httpErrors'
import { isValidTile, TILE_PARAMS_SCHEMA, type TileParams } from './tileMath'
import { TileCache, type TileCacheOptions } from './tileCache'
import { declareRoutes } from '../auth/routeAuth'

export interface TileRoutesOptions extends TileCacheOptions {
  demo: boolean
}

/** URL paths a source answers on: `path`, and `demoPath` in demo mode. */
export function sourcePaths(source: VectorSourceDef, demo: boolean): string[] {
  const paths = [source.path]
  if (demo && source.demoPath && source.demoPath !== source.path) paths.push(source.demoPath)
  return paths
}

/**
 * The spellings of a tile URL: the plain `{y}` the web app uses, and `{y}.pbf` / `{y}.mvt`, the
 * form the TileJSON gives (GDAL's MVT driver opens a single tile only from a URL ending in one).
 */
export const TILE_SUFFIXES = ['', '.pbf', '.mvt'] as const

/**
 * `GET /api/tiles/<path>/mvt/{z}/{x}/{y}` (and `{y}.pbf`, `{y}.mvt`: one handler) for every
 * vector source of the catalog: gzip MVT with ETag and Cache-Control; 204 for an empty tile;
 * 400 for a bad z/x/y; 404 outside the source's zoom range.
 */
export async function tileRoutes(app: FastifyInstance, opts: TileRoutesOptions): Promise<void> {
  declareRoutes(app, { sessionCookie: true, machineScope: 'data:read' })
  const cache = new TileCache(app.store, opts)
  app.decorate('tileCache', cache)
  const seen = new Set<string>()
  for (const source of app.store.catalog.sources) {
    for (const p of sourcePaths(source, opts.demo)) {
      if (seen.has(p)) continue
      seen.add(p)
      const handler = async (request: FastifyRequest<{ Params: TileParams }>, reply: FastifyReply) => {
        const { z, x, y } = request.params
        if (!isValidTile(z, x, y)) {
          const which = x >= 2 ** z ? 'x' : 'y'
          return badRequest(reply, which, `${which} must be below ${2 ** z} at zoom ${z}`)
        }
        if (z < source.minzoom || z > source.maxzoom) {
          return notFound(reply, `${p} has tiles for zooms ${source.minzoom}-${source.maxzoom} only`)
        }
        const tile = await cache.get(source, z, x, y)
        return sendTile(reply, tile, request.headers['if-none-match'], request.headers['accept-encoding'])
      }
      for (const suffix of TILE_SUFFIXES)
        app.get<{ Params: TileParams }>(
          `/${p}/mvt/:z/:x/:y${suffix}`,
          { schema: { params: TILE_PARAMS_SCHEMA } },
          handler,
        )
    }
  }
}

type Tile = Awaited<ReturnType<TileCache['get']>>

/** The response headers of a cached tile, built once per tile (the hot path sets one object). */
interface TileHeaders {
  bare: Record<string, string>
  body: Record<string, string>
  gzip: Record<string, string>
}
const tileHeaders = new WeakMap<Tile, TileHeaders>()

function headersOf(tile: Tile): TileHeaders {
  let h = tileHeaders.get(tile)
  if (!h) {
    const bare = { 'cache-control': 'private, max-age=300', etag: tile.etag, vary: 'Accept-Encoding' }
    const body = {
      ...bare,
      'content-type': 'application/vnd.mapbox-vector-tile',
      'x-tile-features': String(tile.features),
    }
    h = { bare, body, gzip: { ...body, 'content-encoding': 'gzip' } }
    tileHeaders.set(tile, h)
  }
  return h
}

function sendTile(
  reply: FastifyReply,
  tile: Tile,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
): FastifyReply {
  const h = headersOf(tile)
  if (
    ifNoneMatch &&
    (ifNoneMatch === tile.etag || ifNoneMatch.split(',').some((t) => t.trim() === tile.etag))
  )
    return reply.headers(h.bare).code(304).send()
  if (!tile.gz) return reply.headers(h.bare).code(204).send()
  if (acceptEncoding && acceptEncoding.includes('gzip') && /\bgzip\b/.test(acceptEncoding))
    return reply.headers(h.gzip).send(tile.gz)
  tile.raw ??= zlib.gunzipSync(tile.gz)
  return reply.headers(h.body).send(tile.raw)
}
