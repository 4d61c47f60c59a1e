import type { FastifyInstance, FastifyReply } from 'fastify'
import { declareRoutes } from '../auth/routeAuth'
import { badRequest, notFound } from '../http/httpErrors'
import { MAX_TILE_INDEX, MAX_TILE_ZOOM } from '../tiles/tileMath'
import {
  gridCatalog,
  windowHours,
  windowSettings,
  type GridCatalog,
  type RasterSourceDef,
} from './gridCatalog'
import { currentWindowHour, windowStart, windowTimes } from './forecastWindow'
import { GridTiles, type GridTile, type GridTilesOptions } from './gridTiles'
import { windRoutes } from './windRoutes'
import { gridInfoRoutes } from './gridInfoRoutes'
import { smokeRoutes } from './smokeRoutes'
import { runIdOf } from './smokeService'

export interface GridRoutesOptions {
  demo: boolean
  /** Grids and sources (defaults to the compiled config). */
  catalog?: GridCatalog
  /** The clock (tests pin it). */
  now?: () => Date
  tiles?: GridTilesOptions
}

import type { GridContext } from './gridContext'

export type { GridContext }

interface TileParams {
  z: number
  x: number
  y: number
}

interface TileQuery {
  hour?: number
  run?: string
}

/**
 * Raster tiles `GET /api/tiles/<path>/png/{z}/{x}/{y}[?hour=N]` for every `type: png` source,
 * the wind tileset/grid and the smoke service config. Register once in buildApp (no prefix):
 * the data server's auth hook guards /api/tiles and /api/data.
 */
export async function gridRoutes(app: FastifyInstance, opts: GridRoutesOptions): Promise<void> {
  // Machine clients with the data:read scope may read these (issue #32; docs/identity.md).
  declareRoutes(app, { machineScope: 'data:read' })
  const catalog = opts.catalog ?? gridCatalog()
  const store = app.store.grids
  const window = windowSettings(opts.demo)
  const hours = windowHours(catalog)
  const now = opts.now ?? (() => new Date())
  const ctx: GridContext = {
    catalog,
    store,
    tiles: new GridTiles(store, opts.tiles),
    window,
    hours,
    now,
    currentHour: () => currentWindowHour(now(), window, hours),
    validTimes: () => windowTimes(windowStart(now(), window), hours),
  }
  const seen = new Set<string>()
  for (const source of catalog.rasterSources) {
    const paths = [source.path, ...(opts.demo && source.demoPath ? [source.demoPath] : [])]
    for (const p of paths.filter((x) => !seen.has(x))) {
      seen.add(p)
      registerTileRoute(app, ctx, source, p)
    }
  }
  windRoutes(app, ctx)
  smokeRoutes(app, ctx)
  gridInfoRoutes(app, ctx)
}

function registerTileRoute(
  app: FastifyInstance,
  ctx: GridContext,
  source: RasterSourceDef,
  path: string,
): void {
  const querystring = {
    type: 'object',
    additionalProperties: false,
    properties: {
      hour: {
        type: 'integer',
        minimum: 0,
        maximum: ctx.hours - 1,
        description: 'forecast hour of the window',
      },
      run: {
        type: 'string',
        maxLength: 32,
        description: 'smoke model run id (from the smoke service config)',
      },
    },
  } as const
  const params = {
    type: 'object',
    required: ['z', 'x', 'y'],
    properties: {
      z: { type: 'integer', minimum: 0, maximum: MAX_TILE_ZOOM },
      x: { type: 'integer', minimum: 0, maximum: MAX_TILE_INDEX },
      y: { type: 'integer', minimum: 0, maximum: MAX_TILE_INDEX },
    },
  } as const
  app.get<{ Params: TileParams; Querystring: TileQuery }>(
    `/api/tiles/${path}/png/:z/:x/:y`,
    { schema: { params, querystring }, config: { sessionCookie: true }, logLevel: 'warn' },
    async (request, reply) => {
      const { z, x, y } = request.params
      const n = 2 ** z
      if (x >= n || y >= n) {
        const which = x >= n ? 'x' : 'y'
        return badRequest(reply, which, `${which} must be below ${n} at zoom ${z}`)
      }
      if (z < source.minzoom || z > source.maxzoom) {
        return notFound(reply, `${path} has tiles for zooms ${source.minzoom}-${source.maxzoom} only`)
      }
      const { hour: asked, run } = request.query
      if (asked !== undefined && source.grid.hours > 1 && asked >= source.grid.hours) {
        return badRequest(reply, 'hour', `hour must be below ${source.grid.hours} for ${path}`)
      }
      if (run !== undefined && run !== runId(ctx))
        return notFound(reply, `model run '${run}' is not available`)
      const hour = asked ?? (source.grid.hours > 1 ? Math.min(ctx.currentHour(), source.grid.hours - 1) : 0)
      const tile = await ctx.tiles.tile(source, hour, z, x, y)
      return sendPng(reply, tile, request.headers['if-none-match'])
    },
  )
}

/** The id of the current model run (the window start, e.g. `2025030513`). */
export function runId(ctx: GridContext): string {
  return runIdOf(ctx.validTimes()[0] ?? '')
}

function sendPng(
  reply: FastifyReply,
  tile: GridTile | undefined,
  ifNoneMatch: string | undefined,
): FastifyReply {
  if (!tile) return reply.header('Cache-Control', 'private, max-age=60').code(204).send()
  reply.header('Cache-Control', 'private, max-age=300').header('ETag', tile.etag)
  if (ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === tile.etag)) return reply.code(304).send()
  if (!tile.png) return reply.code(204).send()
  return reply.header('Content-Type', 'image/png').send(tile.png)
}
