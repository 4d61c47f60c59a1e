import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { declareRoutes } from '../auth/routeAuth'
import { validationParameter } from '../http/errorHandler'
import { ogcBadRequest, ogcNotFound } from './ogcException'
import { ogcCollections, type OgcCollection } from './ogcCollections'
import { baseUrl, GEOJSON, JSON_TYPE, OPENAPI, type Link } from './ogcLinks'
import { collectionParams, CRS84, knownParameters, metadataQuery } from './ogcSchemas'
import { openApiDocument } from './openApiDocument'
import { ogcTilesRoutes } from './ogcTilesRoutes'
import { ogcItemsRoutes } from './ogcItemsRoutes'
import { unknownParameter } from './requestParameters'

/** The conformance classes the API implements. */
export const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tileset',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tilesets-list',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/dataset-tilesets',
]

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

/**
 * OGC API – Features at /ogc (register with prefix '/ogc'): landing page, conformance, OpenAPI,
 * collections (one per dataset with a table), queryables, items (bbox, datetime, limit/offset,
 * CQL2 text) and single features, plus the tileset list and styles (ogcTilesRoutes). Same
 * session check as the data API: `Authorization: Bearer <session token>`.
 */
export async function ogcRoutes(app: FastifyInstance): Promise<void> {
  // Machine clients with the data:read scope may read these (issue #32; docs/identity.md).
  declareRoutes(app, { machineScope: 'data:read' })
  const collections = ogcCollections(app.store.catalog)
  const byId = new Map(collections.map((c) => [c.id, c]))
  const reader = app.store.ogc

  // Schema failures answer with an OGC exception naming the parameter (this plugin's routes only).
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const parameter = validationParameter(error)
      return ogcBadRequest(reply, parameter, `${parameter} ${error.validation[0]?.message ?? error.message}`)
    }
    if (error.statusCode !== undefined && error.statusCode < 500)
      return ogcBadRequest(reply, 'request', error.message)
    request.log.error(error)
    return reply.code(500).send({
      code: 'ServerError',
      description: 'internal server error',
      error: 'internal',
      message: 'internal server error',
    })
  })

  const collectionOf = (id: string, reply: FastifyReply): OgcCollection | null => {
    const c = byId.get(id)
    if (!c) {
      ogcNotFound(reply, `unknown collection '${id}' (collections: ${[...byId.keys()].join(', ')})`)
      return null
    }
    return c
  }

  const describe = async (c: OgcCollection, base: string) => {
    const info = await app.store.info(c.id)
    const extent: Record<string, unknown> = {
      spatial: { bbox: [info.bbox ?? [-180, -90, 180, 90]], crs: CRS84 },
    }
    if (c.temporal) {
      const range = (await reader.extents(c.dataset, info.version)).timeRange
      extent.temporal = {
        interval: [range ? [iso(range[0]), iso(range[1])] : [null, null]],
        trs: 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian',
      }
    }
    const links: Link[] = [
      { href: `${base}/ogc/collections/${c.id}`, rel: 'self', type: JSON_TYPE, title: c.title },
      {
        href: `${base}/ogc/collections/${c.id}/items`,
        rel: 'items',
        type: GEOJSON,
        title: `${c.title} features`,
      },
      {
        href: `${base}/ogc/collections/${c.id}/queryables`,
        rel: 'http://www.opengis.net/def/rel/ogc/1.0/queryables',
        type: 'application/schema+json',
        title: 'Queryables',
      },
    ]
    return {
      id: c.id,
      title: c.title,
      description: c.description,
      itemType: 'feature',
      crs: [CRS84],
      storageCrs: CRS84,
      extent,
      links,
    }
  }

  const metaOpts = { schema: { querystring: metadataQuery } }
  const checkMeta = (request: FastifyRequest, reply: FastifyReply): boolean => {
    const unknown = unknownParameter(request, knownParameters.metadata)
    if (unknown !== null) {
      ogcBadRequest(reply, unknown, `unknown query parameter '${unknown}'`)
      return false
    }
    return true
  }

  app.get('/', metaOpts, async (request, reply) => {
    if (!checkMeta(request, reply)) return reply
    const base = baseUrl(request)
    const links: Link[] = [
      { href: `${base}/ogc`, rel: 'self', type: JSON_TYPE, title: 'This document' },
      {
        href: `${base}/ogc/api`,
        rel: 'service-desc',
        type: OPENAPI,
        title: 'The API definition (OpenAPI 3.0)',
      },
      { href: `${base}/ogc/conformance`, rel: 'conformance', type: JSON_TYPE, title: 'Conformance classes' },
      {
        href: `${base}/ogc/conformance`,
        rel: 'http://www.opengis.net/def/rel/ogc/1.0/conformance',
        type: JSON_TYPE,
        title: 'Conformance classes',
      },
      { href: `${base}/ogc/collections`, rel: 'data', type: JSON_TYPE, title: 'Feature collections' },
      {
        href: `${base}/ogc/collections`,
        rel: 'http://www.opengis.net/def/rel/ogc/1.0/data',
        type: JSON_TYPE,
        title: 'Feature collections',
      },
      {
        href: `${base}/ogc/tiles`,
        rel: 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector',
        type: JSON_TYPE,
        title: 'Vector tilesets',
      },
      {
        href: `${base}/ogc/tiles`,
        rel: 'http://www.opengis.net/def/rel/ogc/1.0/tilesets-map',
        type: JSON_TYPE,
        title: 'Raster tilesets',
      },
      {
        href: `${base}/ogc/styles`,
        rel: 'http://www.opengis.net/def/rel/ogc/1.0/styles',
        type: JSON_TYPE,
        title: 'Map styles',
      },
    ]
    return {
      title: 'Emberline',
      description: 'Wildfire-risk and utility-asset layers of Emberline as OGC API – Features and Tiles.',
      links,
    }
  })

  app.get('/conformance', metaOpts, async (request, reply) => {
    if (!checkMeta(request, reply)) return reply
    return { conformsTo: CONFORMANCE }
  })

  app.get('/api', metaOpts, async (request, reply) => {
    if (!checkMeta(request, reply)) return reply
    // A Buffer with a plain header: GDAL compares the media type verbatim (no charset, no quoted version).
    return reply
      .header('content-type', OPENAPI)
      .send(Buffer.from(JSON.stringify(openApiDocument(baseUrl(request), collections))))
  })

  app.get('/collections', metaOpts, async (request, reply) => {
    if (!checkMeta(request, reply)) return reply
    const base = baseUrl(request)
    return {
      links: [
        { href: `${base}/ogc/collections`, rel: 'self', type: JSON_TYPE, title: 'Feature collections' },
        {
          href: `${base}/ogc/api`,
          rel: 'service-desc',
          type: OPENAPI,
          title: 'The API definition (OpenAPI 3.0)',
        },
      ],
      collections: await Promise.all(collections.map((c) => describe(c, base))),
    }
  })

  app.get<{ Params: { collectionId: string } }>(
    '/collections/:collectionId',
    { schema: { params: collectionParams, querystring: metadataQuery } },
    async (request, reply) => {
      const c = collectionOf(request.params.collectionId, reply)
      if (!c || !checkMeta(request, reply)) return reply
      return describe(c, baseUrl(request))
    },
  )

  app.get<{ Params: { collectionId: string } }>(
    '/collections/:collectionId/queryables',
    { schema: { params: collectionParams, querystring: metadataQuery } },
    async (request, reply) => {
      const c = collectionOf(request.params.collectionId, reply)
      if (!c || !checkMeta(request, reply)) return reply
      const properties: Record<string, unknown> = {}
      for (const [name, def] of c.filterable) {
        properties[name] =
          def.type === 'number'
            ? { title: name, type: 'number' }
            : def.type === 'date'
              ? { title: name, type: 'string', format: 'date-time' }
              : { title: name, type: 'string' }
      }
      return reply.type('application/schema+json').send(
        JSON.stringify({
          $schema: 'https://json-schema.org/draft/2019-09/schema',
          $id: `${baseUrl(request)}/ogc/collections/${c.id}/queryables`,
          type: 'object',
          title: c.title,
          properties,
          additionalProperties: false,
        }),
      )
    },
  )

  ogcItemsRoutes(app, reader, collectionOf)

  await ogcTilesRoutes(app)
}
