import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SessionVerifier, VerifiedSession } from '../auth/sessionVerifier'
import { unauthorized } from './httpErrors'

/** Holds the verifier the auth hook uses; the identity plugin may set it after buildApp starts. */
export interface SessionAuth {
  verifier: SessionVerifier | null
  setVerifier(verifier: SessionVerifier): void
}

export interface SessionAuthOptions {
  /** URL prefixes that need a session (bearer token). */
  bearerPrefixes: string[]
  /** Prefixes that also accept the SDK session cookie (tile requests from the map cannot set headers). */
  cookiePrefixes: string[]
  cookieName: string
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

function credential(request: FastifyRequest, opts: SessionAuthOptions, path: string): string | null {
  const auth = request.headers.authorization
  if (auth) {
    const m = /^Bearer\s+(\S+)$/i.exec(auth)
    return m ? (m[1] ?? null) : null
  }
  if (opts.cookiePrefixes.some((p) => path.startsWith(p)))
    return cookieValue(request.headers.cookie, opts.cookieName)
  return null
}

/**
 * A root onRequest hook: every request under the protected prefixes needs a credential the
 * verifier accepts, otherwise 401 `{ error: 'unauthorized', message }`. Sets `request.session`.
 */
export function installSessionAuth(
  app: FastifyInstance,
  initial: SessionVerifier | null,
  opts: SessionAuthOptions,
): SessionAuth {
  const holder: SessionAuth = {
    verifier: initial,
    setVerifier(v) {
      holder.verifier = v
    },
  }
  app.decorate('sessionAuth', holder)
  app.decorateRequest('session', null)
  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    if (!opts.bearerPrefixes.some((p) => path.startsWith(p))) return
    const token = credential(request, opts, path)
    if (!token) return unauthorized(reply, 'a session token is required (Authorization: Bearer <token>)')
    const session: VerifiedSession | null = holder.verifier ? await holder.verifier.verify(token) : null
    if (!session) return unauthorized(reply, 'the session is invalid or has expired')
    request.session = session
  })
  return holder
}

/** The bearer token of the Authorization header, or null. */
export function bearerToken(request: FastifyRequest): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null
}

/**
 * A hook for route groups outside the protected prefixes (operations views, preferences): the
 * bearer token must pass the app's session verifier (or `verifier`), otherwise 401
 * `{ error: 'unauthorized', message }`. Sets `request.session`.
 */
export function requireSession(app: FastifyInstance, verifier?: SessionVerifier) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const token = bearerToken(request)
    if (!token) return unauthorized(reply, 'a session token is required (Authorization: Bearer <token>)')
    const check = verifier ?? app.sessionAuth.verifier
    const session = check ? await check.verify(token) : null
    if (!session) return unauthorized(reply, 'the session is invalid or has expired')
    request.session = session
    return undefined
  }
}
