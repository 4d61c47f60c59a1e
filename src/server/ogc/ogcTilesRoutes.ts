import type { FastifyInstance } from 'fastify'
import { layersConfig } from '../../shared/config'
import { gridCatalog } from '../grids/gridCatalog'
import { ogcNotFound } from './ogcException'
import { baseUrl, JSON_TYPE } from './ogcLinks'
import { metadataQuery } from './ogcSchemas'
import { styleDocument, styleIds } from './styleDocument'
import { tileJsonUrl, tileTemplate } from './tileJson'
import { tilesets, TilesetBounds, type Tileset } from './tilesetCatalog'

export const WEB_MERCATOR_QUAD = 'http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad'
const MVT = 'application/vnd.mapbox-vector-tile'
export const STYLE_TYPE = 'application/vnd.mapbox.style+json'

/** Paths served by more than one tileset (a vector and a raster source on one path). */
export function sharedPaths(list: readonly Tileset[]): Set<string> {
  const seen = new Set<string>()
  const shared = new Set<string>()
  for (const t of list) (seen.has(t.path) ? shared : seen).add(t.path)
  return shared
}

/**
 * OGC API – Tiles tileset list (`/ogc/tiles`, `/ogc/tiles/{tilesetId}`) over the tile routes,
 * and MapLibre styles of the vector layers (`/ogc/styles`, `/ogc/styles/{styleId}`).
 * Registered inside ogcRoutes (prefix /ogc).
 */
export async function ogcTilesRoutes(app: FastifyInstance): Promise<void> {
  const list = tilesets(app.store.catalog, gridCatalog())
  const shared = sharedPaths(list)
  const bounds = new TilesetBounds(app.store)
  const demo = app.appOptions.demo

  const summary = (t: Tileset, base: string) => ({
    id: t.id,
    title: t.title,
    dataType: t.kind === 'vector' ? 'vector' : 'map',
    crs: 'http://www.opengis.net/def/crs/EPSG/0/3857',
    tileMatrixSetURI: WEB_MERCATOR_QUAD,
    links: [
      { href: `${base}/ogc/tiles/${t.id}`, rel: 'self', type: JSON_TYPE, title: t.title },
      {
        href: tileTemplate(base, t).replace('{z}/{x}/{y}', '{tileMatrix}/{tileCol}/{tileRow}'),
        rel: 'item',
        type: t.kind === 'vector' ? MVT : 'image/png',
        templated: true,
        title: `${t.title} tiles`,
      },
      {
        href: tileJsonUrl(base, t, shared.has(t.path)),
        rel: 'describedby',
        type: 'application/json',
        title: 'TileJSON',
      },
      {
        href: WEB_MERCATOR_QUAD,
        rel: 'http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme',
        title: 'WebMercatorQuad',
      },
    ],
  })

  app.get('/tiles', { schema: { querystring: metadataQuery } }, async (request) => {
    const base = baseUrl(request)
    return {
      links: [{ href: `${base}/ogc/tiles`, rel: 'self', type: JSON_TYPE, title: 'Tilesets' }],
      tilesets: list.map((t) => summary(t, base)),
    }
  })

  app.get<{ Params: { tilesetId: string } }>(
    '/tiles/:tilesetId',
    {
      schema: {
        params: {
          type: 'object',
          required: ['tilesetId'],
          properties: { tilesetId: { type: 'string', maxLength: 64 } },
        },
        querystring: metadataQuery,
      },
    },
    async (request, reply) => {
      const t = list.find((x) => x.id === request.params.tilesetId)
      if (!t) return ogcNotFound(reply, `unknown tileset '${request.params.tilesetId.slice(0, 64)}'`)
      const base = baseUrl(request)
      const b = await bounds.bounds(t)
      return {
        ...summary(t, base),
        tileMatrixSetLimits: [],
        minTileMatrix: String(t.minzoom),
        maxTileMatrix: String(t.maxzoom),
        ...(b
          ? {
              boundingBox: {
                lowerLeft: [b[0], b[1]],
                upperRight: [b[2], b[3]],
                crs: 'http://www.opengis.net/def/crs/OGC/1.3/CRS84',
              },
            }
          : {}),
        ...(t.dataset
          ? {
              layers: [
                {
                  id: t.dataset.id,
                  dataType: 'vector',
                  geometryType: { point: 'points', line: 'lines', polygon: 'polygons' }[t.dataset.geometry],
                  minTileMatrix: String(t.minzoom),
                  maxTileMatrix: String(t.maxzoom),
                  propertiesSchema: {
                    type: 'object',
                    properties: Object.fromEntries(
                      t.dataset.fields.map((f) => [
                        f.name,
                        { type: f.type === 'number' ? 'number' : 'string' },
                      ]),
                    ),
                  },
                },
              ],
            }
          : {}),
      }
    },
  )

  const ids = styleIds(layersConfig, list)
  app.get('/styles', { schema: { querystring: metadataQuery } }, async (request) => {
    const base = baseUrl(request)
    return {
      links: [{ href: `${base}/ogc/styles`, rel: 'self', type: JSON_TYPE, title: 'Styles' }],
      styles: ids.map((s) => ({
        id: s.id,
        title: s.title,
        links: [
          {
            href: `${base}/ogc/styles/${s.id}`,
            rel: 'stylesheet',
            type: STYLE_TYPE,
            title: `${s.title} (MapLibre)`,
          },
        ],
      })),
    }
  })

  app.get<{ Params: { styleId: string } }>(
    '/styles/:styleId',
    {
      schema: {
        params: {
          type: 'object',
          required: ['styleId'],
          properties: { styleId: { type: 'string', maxLength: 64 } },
        },
        querystring: metadataQuery,
      },
    },
    async (request, reply) => {
      const id = request.params.styleId
      if (!ids.some((s) => s.id === id)) return ogcNotFound(reply, `unknown style '${id.slice(0, 64)}'`)
      const doc = styleDocument(id, {
        base: baseUrl(request),
        layers: layersConfig,
        tilesets: list,
        shared,
        demo,
      })
      return reply.type(STYLE_TYPE).send(JSON.stringify(doc))
    },
  )
}
