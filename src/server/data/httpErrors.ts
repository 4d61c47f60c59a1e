import type { FastifyReply } from 'fastify'

/** 400 `{ error: 'bad_request', parameter, message }` — the one shape every bad parameter gets. */
export function badRequest(reply: FastifyReply, parameter: string, message: string): FastifyReply {
  return reply.code(400).send({ error: 'bad_request', parameter, message })
}

export function notFound(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(404).send({ error: 'not_found', message })
}

export function unauthorized(reply: FastifyReply, message: string): FastifyReply {
  return reply.code(401).send({ error: 'unauthorized', message })
}
