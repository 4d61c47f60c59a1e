import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { SessionVerifier } from '../auth/sessionVerifier'
import { unauthorized } from '../data/httpErrors'

function bearer(request: FastifyRequest): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null
}

/**
 * A preHandler for the PSPS and Planning routes (outside the data API's /api/data prefix): the
 * bearer token must pass the app's session verifier (the one the data routes use), otherwise
 * 401 `{ error: 'unauthorized', message }`. Sets `request.session`.
 */
export function requireSession(app: FastifyInstance, verifier?: SessionVerifier) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const token = bearer(request)
    if (!token) return unauthorized(reply, 'a session token is required (Authorization: Bearer <token>)')
    const check = verifier ?? app.sessionAuth.verifier
    const session = check ? await check.verify(token) : null
    if (!session) return unauthorized(reply, 'the session is invalid or has expired')
    request.session = session
    return undefined
  }
}
