import type { FastifyInstance, FastifyReply } from 'fastify'
import type { OgcFeatureStorage } from '../store/AppStore'
import { featureJson } from './featureJson'
import { toItemsFilter, type ItemsFilter } from './itemsFilter'
import { ogcBadRequest, ogcNotFound } from './ogcException'
import type { OgcCollection } from './ogcCollections'
import { baseUrl, GEOJSON, JSON_TYPE, type Link } from './ogcLinks'
import {
  collectionParams,
  CRS84,
  featureParams,
  featureQuery,
  ITEMS_DEFAULT_LIMIT,
  itemsQuery,
  knownParameters,
} from './ogcSchemas'
import { parseBbox, parseDatetime } from './parseParams'
import { parseCql2 } from './parseCql2'
import { queryItems, type Bbox } from './queryItems'
import { unknownParameter } from './requestParameters'

interface ItemsQueryString {
  limit?: number
  offset?: number
  bbox?: string
  datetime?: string
  filter?: string
}

/** A URL of the items resource with `params` (the request's own, re-encoded). */
function itemsHref(base: string, id: string, params: URLSearchParams): string {
  const s = params.toString()
  return `${base}/ogc/collections/${id}/items${s ? `?${s}` : ''}`
}

/**
 * `/collections/{collectionId}/items` (bbox, datetime, CQL2 filter, limit/offset with next and
 * prev links, numberMatched/numberReturned) and `/collections/{collectionId}/items/{featureId}`.
 */
export function ogcItemsRoutes(
  app: FastifyInstance,
  reader: OgcFeatureStorage,
  collectionOf: (id: string, reply: FastifyReply) => OgcCollection | null,
): void {
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
      const page = await queryItems(app.store, reader, c.dataset, { filter, bbox, interval, limit, offset })
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
      // One JSON.stringify of the features (native, faster than assembling text by hand).
      const body =
        `{"type":"FeatureCollection","timeStamp":${JSON.stringify(new Date().toISOString())}` +
        `,"numberMatched":${page.matched},"numberReturned":${page.rows.length}` +
        `,"features":${JSON.stringify(page.rows.map((row) => featureJson(row, kind)))}` +
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
      const row = Number.isSafeInteger(id) ? (await reader.rows(c.dataset, [id]))[0] : undefined
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
}
