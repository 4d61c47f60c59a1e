import type { OgcCollection } from './ogcCollections'
import { collectionParams, featureParams, featureQuery, itemsQuery, metadataQuery } from './ogcSchemas'

interface ObjectSchema {
  readonly required?: readonly string[]
  readonly properties: Readonly<Record<string, Readonly<Record<string, unknown>>>>
}

type Parameter = Record<string, unknown>

/** OpenAPI parameters from a route's JSON Schema (the same object Fastify validates with). */
function parameters(schema: ObjectSchema, where: 'query' | 'path'): Parameter[] {
  return Object.entries(schema.properties).map(([name, prop]) => {
    const { description, ...rest } = prop
    const p: Parameter = {
      name,
      in: where,
      required: where === 'path' || (schema.required ?? []).includes(name),
      schema: rest,
    }
    if (typeof description === 'string') p.description = description
    if (where === 'query' && name !== 'f') {
      p.style = 'form'
      p.explode = false
    }
    return p
  })
}

const json = (description: string, type = 'application/json') => ({
  description,
  content: { [type]: { schema: { type: 'object' } } },
})

const errors = {
  '400': json('bad parameter (OGC exception: code, description, parameter)'),
  '401': json('no valid session (Authorization: Bearer <session token>)'),
  '404': json('unknown collection or feature'),
}

function get(summary: string, ok: Record<string, unknown>, params: Parameter[], operationId: string) {
  return { get: { summary, operationId, parameters: params, responses: { '200': ok, ...errors } } }
}

/**
 * The OpenAPI 3.0 description of /ogc, generated from the route schemas in ogcSchemas.ts (the
 * ones Fastify validates against), with a concrete items path per collection as well.
 */
export function openApiDocument(
  baseUrl: string,
  collections: readonly OgcCollection[],
): Record<string, unknown> {
  const meta = parameters(metadataQuery, 'query')
  const collection = parameters(collectionParams, 'path')
  const items = parameters(itemsQuery, 'query')
  const paths: Record<string, unknown> = {
    '/': get('Landing page', json('landing page'), meta, 'getLandingPage'),
    '/conformance': get('Conformance classes', json('conformance classes'), meta, 'getConformance'),
    '/api': get(
      'This OpenAPI document',
      json('OpenAPI 3.0', 'application/vnd.oai.openapi+json;version=3.0'),
      meta,
      'getApi',
    ),
    '/collections': get('Feature collections', json('collections'), meta, 'getCollections'),
    '/collections/{collectionId}': get(
      'One collection',
      json('collection'),
      [...collection, ...meta],
      'describeCollection',
    ),
    '/collections/{collectionId}/queryables': get(
      'Properties a filter may use',
      json('JSON Schema of the queryables', 'application/schema+json'),
      [...collection, ...meta],
      'getQueryables',
    ),
    '/collections/{collectionId}/items': get(
      'Features of a collection',
      json('GeoJSON FeatureCollection', 'application/geo+json'),
      [...collection, ...items],
      'getFeatures',
    ),
    '/collections/{collectionId}/items/{featureId}': get(
      'One feature',
      json('GeoJSON Feature', 'application/geo+json'),
      [...parameters(featureParams, 'path'), ...parameters(featureQuery, 'query')],
      'getFeature',
    ),
    '/tiles': get(
      'Vector and raster tilesets (OGC API – Tiles)',
      json('tileset list'),
      meta,
      'getTileSetsList',
    ),
    '/styles': get(
      'Map styles (MapLibre / Mapbox GL) of the vector layers',
      json('style list'),
      meta,
      'getStyles',
    ),
  }
  for (const c of collections) {
    paths[`/collections/${c.id}/items`] = get(
      `Features of ${c.title}`,
      json('GeoJSON FeatureCollection', 'application/geo+json'),
      items,
      `getFeatures_${c.id}`,
    )
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'Emberline OGC API – Features',
      version: '1.0.0',
      description:
        'The datasets of Emberline tables as OGC API – Features (Part 1 Core, GeoJSON, OpenAPI 3.0; Part 3 CQL2 text comparisons). Every request needs Authorization: Bearer <session token>.',
    },
    servers: [{ url: `${baseUrl}/ogc` }],
    security: [{ bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    paths,
  }
}
