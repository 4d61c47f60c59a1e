import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IdentityContext } from './context'
import { safeEqual } from './crypto'
import { validationParameter } from '../http/errorHandler'
import { StytchError, errors, newRequestId, stytchErrorBody } from './errors'

/** The Basic credentials the SDK sends: `public_token:(session token | public token)`. */
export function parseBasic(header: string | undefined): { publicToken: string; secret: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '')
  if (!match?.[1]) return null
  const decoded = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  return { publicToken: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}

/** Requires this project's public token; returns the session token when the secret is one. */
export function sdkSessionToken(ctx: IdentityContext, request: FastifyRequest): string | null {
  const basic = parseBasic(request.headers.authorization)
  if (!basic || !safeEqual(basic.publicToken, ctx.settings.publicToken)) {
    throw errors.unauthorized('The public token is missing or not valid for this project.')
  }
  return basic.secret && basic.secret !== basic.publicToken ? basic.secret : null
}

/** 2xx bodies are wrapped in `data` with request_id and status_code (reference §3). */
export function sendData(reply: FastifyReply, body: object, statusCode = 200) {
  reply.header('cache-control', 'no-store')
  return reply
    .code(statusCode)
    .send({ data: { request_id: newRequestId(), status_code: statusCode, ...body } })
}

/** Every error in the SDK scope answers in Stytch's shape; bad input is 400, never 500. */
export function installStytchErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | StytchError, request, reply) => {
    const requestId = newRequestId()
    let err: StytchError
    if (error instanceof StytchError) err = error
    else if ('validation' in error && error.validation) {
      // The failing field, a refused unknown name, or the missing one (the API's one rule).
      const parameter = validationParameter(error)
      err = new StytchError(400, 'invalid_request', `Invalid ${parameter || 'body'}: ${error.message}`, {
        parameter,
      })
    } else if (
      'statusCode' in error &&
      error.statusCode &&
      error.statusCode >= 400 &&
      error.statusCode < 500
    ) {
      err = new StytchError(error.statusCode, 'invalid_request', error.message)
    } else {
      request.log.error({ err: error }, 'identity provider error')
      err = new StytchError(500, 'internal_server_error', 'The identity provider failed; try again.')
    }
    reply.header('cache-control', 'no-store')
    return reply.code(err.statusCode).type('application/json').send(stytchErrorBody(err, requestId))
  })
  app.setNotFoundHandler((_request, reply) => {
    const err = errors.notFound()
    return reply.code(404).type('application/json').send(stytchErrorBody(err, newRequestId()))
  })
  acceptEmptyJson(app)
}

/** The SDK (and authFetch) send `content-type: application/json` with no body (sessions/revoke, GETs). */
export function acceptEmptyJson(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8')
    if (text.trim() === '') return done(null, {})
    try {
      done(null, JSON.parse(text) as unknown)
    } catch {
      done(new StytchError(400, 'invalid_request', 'The request body is not valid JSON.'), undefined)
    }
  })
}
