import type { FastifyInstance } from 'fastify'
import { badRequest } from '../http/httpErrors'
import { loadBasemapLayers } from './basemapData'
import { BASEMAP_MAX_ZOOM, BasemapTiles } from './basemapTiles'
import { MAX_TILE_INDEX } from '../tiles/tileMath'

interface TileParams {
  z: number
  x: number
  y: number
}

/**
 * The offline dark basemap: `GET /api/basemap/{z}/{x}/{y}` → Mapbox vector tile with layers
 * `states`, `counties`, `county_labels`, `places` (us-atlas outlines and New Mexico places we ship).
 * Declared public (no session): it holds only public boundaries and place names, no Emberline data. 204 for an empty tile, 400 for bad z/x/y.
 */
export async function basemapPlugin(app: FastifyInstance): Promise<void> {
  let tiles: BasemapTiles | null = null
  const getTiles = () => (tiles ??= new BasemapTiles(loadBasemapLayers()))
  app.get<{ Params: TileParams }>(
    '/api/basemap/:z/:x/:y',
    {
      config: { auth: 'public' },
      logLevel: 'warn',
      schema: {
        params: {
          type: 'object',
          required: ['z', 'x', 'y'],
          properties: {
            z: { type: 'integer', minimum: 0, maximum: BASEMAP_MAX_ZOOM + 10, description: 'zoom' },
            x: { type: 'integer', minimum: 0, maximum: MAX_TILE_INDEX, description: 'tile column' },
            y: { type: 'integer', minimum: 0, maximum: MAX_TILE_INDEX, description: 'tile row' },
          },
        },
      },
    },
    async (request, reply) => {
      const { z, x, y } = request.params
      const n = 2 ** z
      if (x >= n) return badRequest(reply, 'x', `x must be below ${n} at zoom ${z}`)
      if (y >= n) return badRequest(reply, 'y', `y must be below ${n} at zoom ${z}`)
      const pbf = getTiles().tile(z, x, y)
      reply.header('Cache-Control', 'public, max-age=86400')
      if (!pbf) return reply.code(204).send()
      return reply.type('application/vnd.mapbox-vector-tile').send(Buffer.from(pbf))
    },
  )
}
