import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { RouteAuth } from './sessionPlugin'
import type { MachineScope, VerifiedSession } from './sessionVerifier'

/**
 * Declares every route registered in this plugin context (and its children) public, permission-
 * bound, cookie-accepting or open to machine tokens of a scope (see RouteAuth, `machineScope`). Call it first thing in an encapsulated plugin; it
 * never reaches the parent. A route's own `config.auth` wins over the context's.
 */
export function declareRoutes(
  app: FastifyInstance,
  config: { auth?: RouteAuth; sessionCookie?: true; machineScope?: MachineScope },
): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...config, ...route.config }
  })
}

/** The verified session of a request that passed the route check (throws if a route forgot it). */
export function sessionOf(request: FastifyRequest): VerifiedSession {
  if (!request.session) throw new Error(`no session on ${request.routeOptions.url ?? 'route'}`)
  return request.session
}
