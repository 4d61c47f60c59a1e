import type { FastifyError, FastifyRequest } from 'fastify'

/**
 * Numbers in one spelling (issue #29). Fastify's Ajv coerces a query, path or body string to a
 * number with JavaScript's `+value`, which takes `Infinity`, `1e309` (→ Infinity), `0x10` (→ 16),
 * `0b101`, ` 5` and `5.` — and Ajv then skips `minimum`/`maximum` for a non-finite value, so
 * `limit=Infinity` reached the stores (a 500 from SQLite, every feature from the OGC API). Before
 * Ajv coerces anything, `numberChecker` holds each value a schema declares `integer` or `number` to
 * plain decimal: a whole number is `-?digits`; a number may add a fraction and an exponent; either
 * must be finite and within the schema's bounds. A parameter given twice (`?limit=1&limit=2`) is
 * refused too. Failures are schema-validation errors, so every error handler (the API's, OGC's,
 * the SDK's) answers its 400 naming the parameter.
 */

/** The subset of JSON Schema the check reads. */
interface NumberSchemaNode {
  type?: string | readonly string[]
  properties?: Readonly<Record<string, NumberSchemaNode>>
  additionalProperties?: boolean | NumberSchemaNode
  items?: NumberSchemaNode | readonly NumberSchemaNode[]
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
}

export interface DecimalRule {
  integer: boolean
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
}

const WHOLE = /^-?\d+$/
const DECIMAL = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/

/** The range of a rule in words (`from 1 to 1000`, `above 0`), or '' when unbounded. */
function rangeText(rule: DecimalRule): string {
  const low =
    rule.minimum !== undefined
      ? `from ${rule.minimum}`
      : rule.exclusiveMinimum !== undefined
        ? `above ${rule.exclusiveMinimum}`
        : ''
  const high =
    rule.maximum !== undefined
      ? `to ${rule.maximum}`
      : rule.exclusiveMaximum !== undefined
        ? `below ${rule.exclusiveMaximum}`
        : ''
  return [low, high].filter(Boolean).join(' ')
}

/** What a value of the rule must be, as the end of an error message. */
export function decimalRuleText(rule: DecimalRule): string {
  const what = rule.integer ? 'a whole number in decimal digits' : 'a finite decimal number'
  const range = rangeText(rule)
  return range ? `${what} ${range}` : what
}

/**
 * The number a text spells in plain decimal within the rule's bounds, or null: no whitespace, no
 * `+`, no hex/binary/octal, no `Infinity`/`NaN`, nothing that overflows a double (`1e309`), and for
 * a whole number no fraction or exponent.
 */
export function parseDecimal(text: string, rule: DecimalRule): number | null {
  if (!(rule.integer ? WHOLE : DECIMAL).test(text)) return null
  const n = Number(text)
  return obeys(n, rule) ? n : null
}

/** Whether a number is finite, whole where the rule says so, and within the rule's bounds. */
function obeys(n: number, rule: DecimalRule): boolean {
  if (!Number.isFinite(n) || (rule.integer && !Number.isSafeInteger(n))) return false
  if (rule.minimum !== undefined && n < rule.minimum) return false
  if (rule.maximum !== undefined && n > rule.maximum) return false
  if (rule.exclusiveMinimum !== undefined && n <= rule.exclusiveMinimum) return false
  if (rule.exclusiveMaximum !== undefined && n >= rule.exclusiveMaximum) return false
  return true
}

const typesOf = (s: NumberSchemaNode): readonly string[] =>
  s.type === undefined ? [] : typeof s.type === 'string' ? [s.type] : s.type

/** Whether a schema (or anything inside it) declares an integer or a number. */
export function declaresNumbers(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false
  const s = schema as NumberSchemaNode
  const types = typesOf(s)
  if (types.includes('integer') || types.includes('number')) return true
  const inside = [
    ...Object.values(s.properties ?? {}),
    ...(typeof s.additionalProperties === 'object' ? [s.additionalProperties] : []),
    ...(s.items === undefined ? [] : Array.isArray(s.items) ? s.items : [s.items as NumberSchemaNode]),
  ]
  return inside.some(declaresNumbers)
}

/** What is wrong with one value of a numeric schema, or null (values Ajv checks as they are). */
function numberProblem(s: NumberSchemaNode, value: unknown, repeatable: boolean): string | null {
  const types = typesOf(s)
  if (Array.isArray(value) && !types.includes('array'))
    return repeatable ? 'must be given once' : 'must be one number, not a list'
  if (typeof value === 'boolean' && !types.includes('boolean')) return 'must be a number'
  const rule: DecimalRule = {
    integer: !types.includes('number'),
    minimum: s.minimum,
    maximum: s.maximum,
    exclusiveMinimum: s.exclusiveMinimum,
    exclusiveMaximum: s.exclusiveMaximum,
  }
  // A JSON body's number (1e309 parses to Infinity) is held to the same bounds as a spelled one.
  const ok =
    typeof value === 'number'
      ? obeys(value, rule)
      : typeof value !== 'string' || types.includes('string') || parseDecimal(value, rule) !== null
  return ok ? null : `must be ${decimalRuleText(rule)}`
}

/** The first numeric value of `value` (walked along `schema`) that is not plain decimal. */
function findProblem(
  schema: NumberSchemaNode,
  value: unknown,
  path: string[],
  repeatable: boolean,
): { path: string[]; message: string } | null {
  if (value === undefined || value === null) return null
  const types = typesOf(schema)
  if (types.includes('integer') || types.includes('number')) {
    const message = numberProblem(schema, value, repeatable)
    if (message) return { path, message }
  }
  if (Array.isArray(value) && schema.items !== undefined && !Array.isArray(schema.items)) {
    const items = schema.items as NumberSchemaNode
    if (!declaresNumbers(items)) return null
    for (const [i, v] of value.entries()) {
      const found = findProblem(items, v, [...path, String(i)], false)
      if (found) return found
    }
    return null
  }
  if (typeof value !== 'object' || Array.isArray(value)) return null
  const record = value as Record<string, unknown>
  const extra = typeof schema.additionalProperties === 'object' ? schema.additionalProperties : null
  for (const key of Object.keys(record)) {
    const s = schema.properties && Object.hasOwn(schema.properties, key) ? schema.properties[key] : extra
    if (!s || !declaresNumbers(s)) continue
    const found = findProblem(s, record[key], [...path, key], repeatable && path.length === 0)
    if (found) return found
  }
  return null
}

/** The request parts a route schema describes, by Fastify's schema name and the request's field. */
const PARTS = [
  ['params', 'params'],
  ['body', 'body'],
  ['querystring', 'query'],
] as const

/** A schema-validation error (what Ajv's would be), so each scope's error handler names the parameter. */
function validationError(context: (typeof PARTS)[number][0], path: string[], message: string): FastifyError {
  const instancePath = `/${path.join('/')}`
  const error = new Error(`${context}${instancePath} ${message}`) as FastifyError
  error.statusCode = 400
  error.code = 'FST_ERR_VALIDATION'
  error.validation = [{ keyword: 'decimal', instancePath, schemaPath: '#', params: {}, message }]
  error.validationContext = context
  return error
}

/**
 * A preValidation hook for a route whose schema declares numbers (null when it declares none):
 * refuses, as a 400 naming the parameter, any value of an integer/number parameter that is not
 * plain decimal within bounds, and a query parameter given more than once.
 */
export function numberChecker(schema: Readonly<Record<string, unknown>> | undefined) {
  const parts = PARTS.filter(([name]) => declaresNumbers(schema?.[name]))
  if (parts.length === 0) return null
  return async function strictNumbers(request: FastifyRequest): Promise<void> {
    for (const [name, field] of parts) {
      const found = findProblem(
        schema?.[name] as NumberSchemaNode,
        request[field],
        [],
        name === 'querystring',
      )
      if (found) throw validationError(name, found.path, found.message)
    }
  }
}
