import type { FastifyRequest } from 'fastify'

/** Query parameter names of the request as sent (before schema defaults and coercion). */
function sentParameters(request: FastifyRequest): string[] {
  const q = request.url.indexOf('?')
  return q < 0 ? [] : [...new URLSearchParams(request.url.slice(q + 1)).keys()]
}

/** The first parameter not in `known` (OGC API – Features: unknown parameters are a 400), or null. */
export function unknownParameter(request: FastifyRequest, known: ReadonlySet<string>): string | null {
  return sentParameters(request).find((name) => !known.has(name)) ?? null
}
