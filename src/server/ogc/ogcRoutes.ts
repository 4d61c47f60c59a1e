import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { OgcFeatureReader } from '../store/ogcFeatures'
import { featureJson } from './featureJson'
import { featureText } from './featureText'
import { parseCql2 } from './parseCql2'
import { toItemsFilter, type ItemsFilter } from './itemsFilter'
import { ogcBadRequest, ogcNotFound } from './ogcException'
import { ogcCollections, type OgcCollection } from './ogcCollections'
import { baseUrl, GEOJSON, JSON_TYPE, OPENAPI, type Link } from './ogcLinks'
import {
  collectionParams,
  CRS84,
  featureParams,
  featureQuery,
  ITEMS_DEFAULT_LIMIT,
  itemsQuery,
  knownParameters,
  metadataQuery,
} from './ogcSchemas'
import { openApiDocument } from './openApiDocument'
import { parseBbox, parseDatetime } from './parseParams'
import { queryItems, type Bbox } from './queryItems'
import { ogcTilesRoutes } from './ogcTilesRoutes'

/** The conformance classes the API implements. */
export const CONFORMANCE = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/features-filter',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables',
  'http://www.opengis.net/spec/ogcapi-features-3/1.0/conf/queryables-query-parameters',
  'http://www.opengis.net/spec/cql2/1.0/conf/cql2-text',
  'http://www.opengis.net/spec/cql2/1.0/conf/basic-cql2',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tileset',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/tilesets-list',
  'http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/dataset-tilesets',
]

interface ItemsQueryString {
  limit?: number
  offset?: number
  bbox?: string
  datetime?: string
  filter?: string
}

/** Query parameter names of the request as sent (before schema defaults and coercion). */
function sentParameters(request: FastifyRequest): string[] {
  const q = request.url.indexOf('?')
  return q < 0 ? [] : [...new URLSearchParams(request.url.slice(q + 1)).keys()]
}

/** The first parameter not in `known` (OGC API – Features: unknown parameters are a 400), or null. */
function unknownParameter(request: FastifyRequest, known: ReadonlySet<string>): string | null {
  return sentParameters(request).find((name) => !known.has(name)) ?? null
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

/** A URL of the items resource with `params` (the request's own, re-encoded). */
function itemsHref(base: string, id: string, params: URLSearchParams): string {
  const s = params.toString()
  return `${base}/ogc/collections/${id}/items${s ? `?${s}` : ''}`
}

/**
 * OGC API – Features at /ogc (register with prefix '/ogc'): landing page, conformance, OpenAPI,
 * collections (one per dataset with a table), queryables, items (bbox, datetime, limit/offset,
 * CQL2 text) and single features, plus the tileset list and styles (ogcTilesRoutes). Same
 * session check as the data API: `Authorization: Bearer <session token>`.
 */
export async function ogcRoutes(app: FastifyInstance): Promise<void> {
  const collections = ogcCollections(app.store.catalog)
  const byId = new Map(collections.map((c) => [c.id, c]))
  const reader = new OgcFeatureReader(app.store.db)

  // Schema failures answer with an OGC exception naming the parameter (this plugin's routes only).
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const first = error.validation[0]
      const parameter =
        first?.instancePath.replace(/^\//, '').split('/')[0] || error.validationContext || 'request'
      return ogcBadRequest(reply, parameter, `${parameter} ${first?.message ?? error.message}`)
    }
    if (error.statusCode !== undefined && error.statusCode < 500)
      return ogcBadRequest(reply, 'request', error.message)
    request.log.error(error)
    return reply.code(500).send({ code: 'ServerError', description: 'internal server error' })
  })

  const collectionOf = (id: string, reply: FastifyReply): OgcCollection | null => {
    const c = byId.get(id)
    if (!c) {
      ogcNotFound(reply, `unknown collection '${id}' (collections: ${[...byId.keys()].join(', ')})`)
      return null
    }
    return c
  }

  const describe = (c: OgcCollection, base: string) => {
    const info = app.store.info(c.id)
    const extent: Record<string, unknown> = {
      spatial: { bbox: [info.bbox ?? [-180, -90, 180, 90]], crs: CRS84 },
    }
    if (c.temporal) {
      const range = reader.extents(c.dataset, info.version).timeRange
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
      collections: collections.map((c) => describe(c, base)),
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

  app.get<{ Params: { collectionId: string }; Querystring: ItemsQueryString }>(
    '/collections/:collectionId/items',
    { schema: { params: collectionParams, querystring: itemsQuery } },
    async (request, reply) => {
      const c = collectionOf(request.params.collectionId, reply)
      if (!c) return reply
      const unknown = unknownParameter(request, knownParameters.items)
      if (unknown !== null) return ogcBadRequest(reply, unknown, `unknown query parameter '${unknown}'`)
      const q = request.query
      let bbox: Bbox | undefined
      if (q.bbox !== undefined) {
        const parsed = parseBbox(q.bbox)
        if (!parsed.ok) return ogcBadRequest(reply, 'bbox', parsed.message)
        bbox = parsed.value
      }
      let interval: [number, number] | undefined
      if (q.datetime !== undefined) {
        const parsed = parseDatetime(q.datetime)
        if (!parsed.ok) return ogcBadRequest(reply, 'datetime', parsed.message)
        if (!c.temporal)
          return ogcBadRequest(reply, 'datetime', `collection '${c.id}' has no temporal property`)
        interval = parsed.value
      }
      let filter: ItemsFilter = { filters: [], textTests: [] }
      if (q.filter !== undefined) {
        const parsed = parseCql2(q.filter)
        if (!parsed.ok) return ogcBadRequest(reply, 'filter', `filter: ${parsed.message}`)
        const checked = toItemsFilter(parsed.comparisons, c.filterable)
        if (!checked.ok) return ogcBadRequest(reply, 'filter', checked.message)
        filter = checked.filter
      }
      const limit = q.limit ?? ITEMS_DEFAULT_LIMIT
      const offset = q.offset ?? 0
      const page = queryItems(app.store, reader, c.dataset, { filter, bbox, interval, limit, offset })
      const base = baseUrl(request)
      const own = new URLSearchParams(request.url.slice(request.url.indexOf('?') + 1 || request.url.length))
      own.delete('f')
      const links: Link[] = [
        { href: itemsHref(base, c.id, own), rel: 'self', type: GEOJSON, title: 'This page' },
        { href: `${base}/ogc/collections/${c.id}`, rel: 'collection', type: JSON_TYPE, title: c.title },
      ]
      if (offset + page.rows.length < page.matched && page.rows.length > 0) {
        const next = new URLSearchParams(own)
        next.set('offset', String(offset + limit))
        next.set('limit', String(limit))
        links.push({ href: itemsHref(base, c.id, next), rel: 'next', type: GEOJSON, title: 'Next page' })
      }
      if (offset > 0) {
        const prev = new URLSearchParams(own)
        prev.set('offset', String(Math.max(0, offset - limit)))
        prev.set('limit', String(limit))
        links.push({ href: itemsHref(base, c.id, prev), rel: 'prev', type: GEOJSON, title: 'Previous page' })
      }
      const kind = c.dataset.geometry
      // Written as text: the features straight from their geometry blobs (featureText.ts).
      const body =
        `{"type":"FeatureCollection","timeStamp":${JSON.stringify(new Date().toISOString())}` +
        `,"numberMatched":${page.matched},"numberReturned":${page.rows.length}` +
        `,"features":[${page.rows.map((row) => featureText(row, kind)).join(',')}]` +
        `,"links":${JSON.stringify(links)}}`
      return reply.type(GEOJSON).header('Content-Crs', `<${CRS84}>`).send(body)
    },
  )

  app.get<{ Params: { collectionId: string; featureId: string } }>(
    '/collections/:collectionId/items/:featureId',
    { schema: { params: featureParams, querystring: featureQuery } },
    async (request, reply) => {
      const c = collectionOf(request.params.collectionId, reply)
      if (!c) return reply
      const unknown = unknownParameter(request, knownParameters.feature)
      if (unknown !== null) return ogcBadRequest(reply, unknown, `unknown query parameter '${unknown}'`)
      const raw = request.params.featureId
      const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN
      const row = Number.isSafeInteger(id) ? reader.rows(c.dataset, [id])[0] : undefined
      if (!row) return ogcNotFound(reply, `collection '${c.id}' has no feature '${raw.slice(0, 40)}'`)
      const base = baseUrl(request)
      const body = {
        ...featureJson(row, c.dataset.geometry),
        links: [
          { href: `${base}/ogc/collections/${c.id}/items/${row.id}`, rel: 'self', type: GEOJSON },
          { href: `${base}/ogc/collections/${c.id}`, rel: 'collection', type: JSON_TYPE, title: c.title },
        ],
      }
      return reply.type(GEOJSON).header('Content-Crs', `<${CRS84}>`).send(JSON.stringify(body))
    },
  )

  await ogcTilesRoutes(app)
}
