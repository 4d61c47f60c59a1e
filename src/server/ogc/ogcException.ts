import type { FastifyReply } from 'fastify'

/**
 * An OGC API exception (`code`, `description`) that also names the parameter, like every other
 * 400 of the API (`error`, `parameter`, `message`).
 */
export function ogcBadRequest(reply: FastifyReply, parameter: string, description: string): FastifyReply {
  return reply.code(400).send({
    code: 'InvalidParameterValue',
    description,
    parameter,
    error: 'bad_request',
    message: description,
  })
}

export function ogcNotFound(reply: FastifyReply, description: string): FastifyReply {
  return reply.code(404).send({ code: 'NotFound', description, error: 'not_found', message: description })
}
