/**
 * JSON Schema building blocks every route uses for its params, query and body (Fastify validates
 * them with Ajv before the handler; a failure answers 400 naming the parameter, see errorHandler).
 * Fastify's Ajv removes properties `additionalProperties: false` does not list (it does not fail),
 * so a route that must refuse unknown names lists them with `propertyNames`.
 */

/** A route that takes no query parameters (any given are dropped before the handler). */
export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const

/**
 * A POST/PUT that takes no body (it acts on the path or the session): none is read, so whatever a
 * client sends (the SDK sends `{}`, nothing, or telemetry) is accepted and ignored.
 */
export const noBody = { description: 'no body: anything sent is ignored' } as const

/** Path parameters: `{ id }`, a row id of up to 15 digits. */
export const numericIdParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^\\d{1,15}$', description: 'row id (a whole number)' } },
} as const

/**
 * A query whose parameter names follow a pattern (e.g. `weight.<factor>`), each given once as a
 * string; the handler checks the values against config. An unknown name answers 400 naming it.
 */
export function patternQuery(namePattern: string, description: string) {
  return {
    type: 'object',
    description,
    propertyNames: { pattern: namePattern },
    additionalProperties: { type: 'string', maxLength: 200 },
  } as const
}

/** A JSON object response whose listed fields are serialized and any others kept (never dropped). */
export function openObject(properties: Record<string, unknown> = {}) {
  return { type: 'object', additionalProperties: true, properties } as const
}
