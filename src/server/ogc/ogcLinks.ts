import type { FastifyRequest } from 'fastify'

export interface Link {
  href: string
  rel: string
  type?: string
  title?: string
  templated?: boolean
}

export const GEOJSON = 'application/geo+json'
export const JSON_TYPE = 'application/json'
export const OPENAPI = 'application/vnd.oai.openapi+json;version=3.0'

/** The origin the client used (`http://host:port`): links are absolute, as desktop GIS clients expect. */
export function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`
}
