import type { FastifyReply } from 'fastify'

/**
 * The one error shape of the Emberline API (everything but the Stytch-compatible /sdk/v1 scope and
 * OGC's exception body, which add their own fields to it): `{ error, message }`, plus `parameter`
 * naming the query, path or body field of a 400.
 */
export interface ErrorBody {
  error: ErrorCode
  message: string
  parameter?: string
}

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'not_supported'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'bad_gateway'
  | 'gateway_timeout'
  | 'internal'

/** The error code of an HTTP status (4xx without a code of their own are bad_request). */
export function errorCodeOf(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthorized'
    case 403:
      return 'forbidden'
    case 404:
      return 'not_found'
    case 409:
      return 'conflict'
    case 413:
      return 'payload_too_large'
    case 415:
      return 'unsupported_media_type'
    case 429:
      return 'too_many_requests'
    case 502:
      return 'bad_gateway'
    case 504:
      return 'gateway_timeout'
    default:
      return status >= 500 ? 'internal' : 'bad_request'
  }
}

/**
 * An error a handler or hook throws to answer with the error shape (the app's error handler sends
 * it). `code` defaults to the status's own (errorCodeOf).
 */
export class HttpError extends Error {
  readonly error: ErrorCode
  constructor(
    readonly statusCode: number,
    message: string,
    readonly parameter?: string,
    code?: ErrorCode,
  ) {
    super(message)
    this.error = code ?? errorCodeOf(statusCode)
  }

  get body(): ErrorBody {
    return this.parameter === undefined
      ? { error: this.error, message: this.message }
      : { error: this.error, parameter: this.parameter, message: this.message }
  }
}

/** 400 `{ error: 'bad_request', parameter, message }` — the one shape every bad parameter gets. */
export function badRequest(reply: FastifyReply, parameter: string, message: string): FastifyReply {
  return reply.code(400).send({ error: 'bad_request', parameter, message })
}

export function unauthorized(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(401).send({ error: 'unauthorized', message })
}

export function forbidden(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(403).send({ error: 'forbidden', message })
}

export function notFound(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(404).send({ error: 'not_found', message })
}

/** Sends a thrown HttpError (or any status + message) in the error shape. */
export function sendError(reply: FastifyReply, error: HttpError): FastifyReply {
  return reply.code(error.statusCode).send(error.body)
}
