import { MAX_OFFSET } from '../data/dataRoutes'

/** Items `limit`: default and maximum (issue #20: 100 and 10,000). */
export const ITEMS_DEFAULT_LIMIT = 100
export const ITEMS_MAX_LIMIT = 10_000

/** The one CRS the API serves and accepts (longitude, latitude in degrees). */
export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84'

const f = {
  type: 'string',
  enum: ['json', 'geojson'],
  description: 'response format (JSON / GeoJSON only)',
} as const

/** Query parameters of the metadata resources (landing, conformance, collections…). */
export const metadataQuery = {
  type: 'object',
  properties: { f },
} as const

export const collectionParams = {
  type: 'object',
  required: ['collectionId'],
  properties: { collectionId: { type: 'string', maxLength: 64, description: 'collection (dataset) id' } },
} as const

export const featureParams = {
  type: 'object',
  required: ['collectionId', 'featureId'],
  properties: {
    collectionId: collectionParams.properties.collectionId,
    featureId: { type: 'string', maxLength: 32, description: 'feature id (integer)' },
  },
} as const

/** Query parameters of `/collections/{collectionId}/items` (also the OpenAPI document's). */
export const itemsQuery = {
  type: 'object',
  properties: {
    limit: {
      type: 'integer',
      minimum: 1,
      maximum: ITEMS_MAX_LIMIT,
      default: ITEMS_DEFAULT_LIMIT,
      description: 'features per page',
    },
    offset: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_OFFSET,
      default: 0,
      description: 'features to skip (next links carry it)',
    },
    bbox: {
      type: 'string',
      maxLength: 200,
      description: 'minLon,minLat,maxLon,maxLat in CRS84: features whose extent meets the box',
    },
    'bbox-crs': { type: 'string', enum: [CRS84], description: 'CRS of bbox (CRS84 only)' },
    datetime: {
      type: 'string',
      maxLength: 100,
      description:
        "RFC 3339 instant or interval start/end ('..' open) on the collection's first date property",
    },
    filter: {
      type: 'string',
      maxLength: 4000,
      description: 'CQL2 text: comparisons (= <> < <= > >=, LIKE) on queryables joined by AND',
    },
    'filter-lang': { type: 'string', enum: ['cql2-text'], description: 'filter language (cql2-text)' },
    'filter-crs': { type: 'string', enum: [CRS84], description: 'CRS of filter geometries (CRS84 only)' },
    crs: { type: 'string', enum: [CRS84], description: 'CRS of the response (CRS84 only)' },
    f,
  },
} as const

export const featureQuery = {
  type: 'object',
  properties: { crs: itemsQuery.properties.crs, f },
} as const

/** Names a request may use on each resource (others are a 400, as OGC API – Features requires). */
export const knownParameters = {
  metadata: new Set(Object.keys(metadataQuery.properties)),
  items: new Set(Object.keys(itemsQuery.properties)),
  feature: new Set(Object.keys(featureQuery.properties)),
}
