import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { noQuery } from './schemas'
import { numberChecker } from './strictNumbers'

/** One registered route as the spine sees it (method, URL and its JSON Schema). */
export interface RouteRecord {
  method: string
  url: string
  schema: FastifySchema | undefined
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after the spine was installed (tests check each has its schemas). */
    routeTable: readonly RouteRecord[]
  }
}

/** `{ name }` path parameters of a URL (`/a/:id/b/:x` → id, x), each a bounded string. */
export function pathParams(url: string) {
  const names = [...url.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '')
  return {
    type: 'object',
    required: names,
    properties: Object.fromEntries(names.map((n) => [n, { type: 'string', maxLength: 500 }])),
  } as const
}

/**
 * Input is default-deny like the session check: a route that declares no `querystring` schema
 * gets `noQuery` (parameters it did not declare never reach the handler), and one with path
 * parameters but no `params` schema gets bounded strings. Routes declare the rest themselves;
 * tests/api/routeSchemas.test.ts holds that every POST/PUT/PATCH declares its body. Every value a
 * schema declares `integer` or `number` is held to plain decimal within its bounds before Ajv
 * coerces it (`strictNumbers.ts`: no `Infinity`, `1e309`, `0x10`, ` 5`, `+5`, repeated names).
 * Static files (@fastify/static, `schema.hide`) are left alone. Records every route in `app.routeTable`.
 */
async function routeSchemasPlugin(app: FastifyInstance): Promise<void> {
  const table: RouteRecord[] = []
  app.decorate('routeTable', table)
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as (FastifySchema & { hide?: boolean }) | undefined
    if (schema?.hide !== true) {
      route.schema = {
        ...schema,
        querystring: schema?.querystring ?? noQuery,
        ...(route.url.includes(':') ? { params: schema?.params ?? pathParams(route.url) } : {}),
      }
      const checkNumbers = numberChecker(route.schema as Record<string, unknown>)
      if (checkNumbers) route.preValidation = [checkNumbers, ...[route.preValidation ?? []].flat()]
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) table.push({ method, url: route.url, schema: route.schema })
  })
}

export default fp(routeSchemasPlugin, { name: 'emberline-route-schemas', fastify: '5.x' })
