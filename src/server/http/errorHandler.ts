import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { badRequest, errorCodeOf, HttpError, sendError } from './httpErrors'

/** The parameter a JSON Schema validation error names: the failing field, else the part of the request. */
export function validationParameter(error: FastifyError): string {
  const first = error.validation?.[0] as
    (NonNullable<FastifyError['validation']>[number] & { propertyName?: string }) | undefined
  const params = first?.params as { missingProperty?: unknown; propertyName?: unknown } | undefined
  // A name refused by `propertyNames` (an unknown query parameter or body key).
  const named = first?.propertyName ?? params?.propertyName
  if (typeof named === 'string' && named) return named
  const fromPath = first?.instancePath.replace(/^\//, '').split('/')[0]
  const missing = params?.missingProperty
  return fromPath || (typeof missing === 'string' ? missing : '') || error.validationContext || 'request'
}

/**
 * The app's one error handler (Fastify `setErrorHandler`): schema validation → 400 naming the
 * parameter; an HttpError → its status and body; Fastify's own 4xx (unparseable JSON, body too
 * large, unsupported media type) → that status with `parameter: 'body'`; anything else is logged
 * and answers 500 without detail. Nothing a client sends reaches the 500 branch.
 */
export function handleError(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  if (error instanceof HttpError) return sendError(reply, error)
  const fastifyError = error as FastifyError
  if (fastifyError.validation) {
    const parameter = validationParameter(fastifyError)
    const first = fastifyError.validation[0] as
      { keyword?: string; propertyName?: string; message?: string } | undefined
    const unknownName = first?.keyword === 'propertyNames' || first?.propertyName !== undefined
    const message = unknownName
      ? `unknown parameter '${parameter}'`
      : `${parameter} ${first?.message ?? error.message}`
    return badRequest(reply, parameter, message)
  }
  const status = fastifyError.statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    // Fastify's own 400/413/415 are about the body (unparseable JSON, too large, wrong media type).
    const aboutBody = status === 400 || status === 413 || status === 415
    const body = aboutBody
      ? { error: errorCodeOf(status), parameter: 'body', message: error.message }
      : { error: errorCodeOf(status), message: error.message }
    return reply.code(status).send(body)
  }
  request.log.error(error)
  return reply.code(500).send({ error: 'internal', message: 'internal server error' })
}

/** Installs handleError on an app (buildApp does it at the root; every plugin inherits it). */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(handleError)
}
