import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { unauthorized } from '../data/httpErrors'
import type { SessionVerifier, VerifiedSession } from './sessionVerifier'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers without a session (sign-in, health, static files). Every other route needs one. */
    public?: boolean
    /**
     * Besides `Authorization: Bearer`, the route accepts the SDK's session cookie: map tiles are
     * fetched by the browser's image/tile loaders, which cannot set headers.
     */
    sessionCookie?: boolean
  }
  interface FastifyInstance {
    /** The verifier the session check uses; the identity plugin may set it after buildApp starts. */
    sessionAuth: SessionAuth
  }
  interface FastifyRequest {
    /** The verified session of the request (null on public routes and 404s). */
    session: VerifiedSession | null
  }
}

/** Holds the verifier the session check uses; the identity plugin may set it after buildApp starts. */
export interface SessionAuth {
  verifier: SessionVerifier | null
  setVerifier(verifier: SessionVerifier): void
}

export interface RouteAuthOptions {
  /** Name of the SDK session cookie accepted by routes declaring `sessionCookie`. */
  cookieName: string
}

/** The bearer token of the Authorization header, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null
}

function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null
  for (const part of header.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === name) {
      const v = part.slice(i + 1).trim()
      try {
        return decodeURIComponent(v)
      } catch {
        return v
      }
    }
  }
  return null
}

/**
 * Default-deny session check, decided by the route Fastify matched (never by the raw URL): a
 * root `onRequest` hook that lets through only routes declaring `config: { public: true }` and
 * the not-found handler (which answers no data); every other route needs a credential the
 * verifier accepts, otherwise 401 `{ error: 'unauthorized', message }`. Sets `request.session`.
 * Install it before any route is registered.
 */
export function installRouteAuth(
  app: FastifyInstance,
  initial: SessionVerifier | null,
  opts: RouteAuthOptions,
): SessionAuth {
  const holder: SessionAuth = {
    verifier: initial,
    setVerifier(v) {
      holder.verifier = v
    },
  }
  app.decorate('sessionAuth', holder)
  app.decorateRequest('session', null)
  app.addHook('onRequest', async (request, reply): Promise<FastifyReply | undefined> => {
    if (request.is404) return undefined
    const config = request.routeOptions.config
    if (config.public === true) return undefined
    const header = request.headers.authorization
    let token: string | null
    if (header !== undefined) {
      token = bearerToken(request)
      if (!token) return unauthorized(reply, 'the Authorization header must be "Bearer <session token>"')
    } else {
      token = config.sessionCookie === true ? cookieValue(request.headers.cookie, opts.cookieName) : null
    }
    if (!token) return unauthorized(reply, 'a session token is required (Authorization: Bearer <token>)')
    const session = holder.verifier ? await holder.verifier.verify(token) : null
    if (!session) return unauthorized(reply, 'the session is invalid or has expired')
    request.session = session
    return undefined
  })
  return holder
}

/**
 * Declares every route registered in this plugin context (and its children) public or
 * cookie-accepting. Call it first thing in an encapsulated plugin; it never reaches the parent.
 */
export function declareRoutes(app: FastifyInstance, config: { public?: true; sessionCookie?: true }): void {
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, ...config }
  })
}

/** The verified session of a request that passed the route check (throws if a route forgot it). */
export function sessionOf(request: FastifyRequest): VerifiedSession {
  if (!request.session) throw new Error(`no session on ${request.routeOptions.url ?? 'route'}`)
  return request.session
}
