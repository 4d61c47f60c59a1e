import type { FastifyInstance } from 'fastify'
import { declareRoutes } from '../auth/routeAuth'
import { openObject } from '../http/schemas'
import { gridCatalog } from '../grids/gridCatalog'
import { baseUrl } from './ogcLinks'
import { sharedPaths } from './ogcTilesRoutes'
import { tileJson } from './tileJson'
import { tilesets, TilesetBounds, type Tileset } from './tilesetCatalog'

/** TileJSON 3.0 (response schema): the fields clients read, every other field kept. */
const tileJsonResponse = openObject({
  tilejson: { type: 'string' },
  name: { type: 'string' },
  scheme: { type: 'string' },
  tiles: { type: 'array', items: { type: 'string' } },
  minzoom: { type: 'integer' },
  maxzoom: { type: 'integer' },
  bounds: { type: 'array', items: { type: 'number' } },
  center: { type: 'array', items: { type: 'number' } },
  vector_layers: { type: 'array', items: openObject() },
})

/**
 * TileJSON 3.0 of every vector and raster source: `/api/tiles/<path>/tilejson.json` (the vector
 * source when a path serves both), `/api/tiles/<path>/mvt/tilejson.json` and
 * `/api/tiles/<path>/png/tilejson.json`. Same session check as the tiles (Bearer or the session cookie).
 */
export async function tileJsonRoutes(app: FastifyInstance): Promise<void> {
  declareRoutes(app, { sessionCookie: true, machineScope: 'data:read' })
  const list = tilesets(app.store.catalog, gridCatalog())
  const bounds = new TilesetBounds(app.store)
  const shared = sharedPaths(list)
  const routes = new Map<string, Tileset>()
  for (const t of list) {
    routes.set(`/api/tiles/${t.path}/${t.kind === 'vector' ? 'mvt' : 'png'}/tilejson.json`, t)
    const plain = `/api/tiles/${t.path}/tilejson.json`
    if (!routes.has(plain) && (!shared.has(t.path) || t.kind === 'vector')) routes.set(plain, t)
  }
  for (const [url, t] of routes) {
    app.get(url, { schema: { response: { 200: tileJsonResponse } } }, async (request, reply) =>
      reply
        .header('Cache-Control', 'private, max-age=60')
        .send(tileJson(baseUrl(request), t, await bounds.bounds(t))),
    )
  }
}
