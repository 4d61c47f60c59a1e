import fc from 'fast-check'
import type { FastifyInstance } from 'fastify'
import type { RouteRecord } from '../../src/server/http/routeSchemas'

// Numbers in every spelling, for every numeric parameter the route table declares (issue #29):
// the fuzz files read the routes' own schemas, so a route or a number added anywhere is covered.

type Part = 'querystring' | 'params' | 'body'

/** A numeric schema as routes declare it (`type: 'integer' | 'number'` with its bounds). */
export interface NumberSchema {
  type: 'integer' | 'number'
  minimum: number
  maximum: number
}

/** One numeric parameter of one route: where it is (query, path or body) and its bounds. */
export interface NumericParam {
  method: string
  url: string
  part: Part
  name: string
  schema: NumberSchema
}

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
}

const typesOf = (s: JsonSchema): string[] => (s.type === undefined ? [] : [s.type].flat())

/** The top-level numeric parameters of every route (HEAD repeats GET and is left out). */
export function numericParams(table: readonly RouteRecord[]): NumericParam[] {
  const out: NumericParam[] = []
  for (const route of table) {
    if (route.method === 'HEAD') continue
    const schema = (route.schema ?? {}) as Partial<Record<Part, JsonSchema>>
    for (const part of ['querystring', 'params', 'body'] as const) {
      for (const [name, s] of Object.entries(schema[part]?.properties ?? {})) {
        const types = typesOf(s)
        const type = types.includes('integer') ? 'integer' : types.includes('number') ? 'number' : null
        if (!type) continue
        const minimum = s.minimum ?? (s.exclusiveMinimum ?? -Number.MAX_SAFE_INTEGER) + 1
        const maximum = s.maximum ?? (s.exclusiveMaximum ?? Number.MAX_SAFE_INTEGER) - 1
        out.push({ method: route.method, url: route.url, part, name, schema: { type, minimum, maximum } })
      }
    }
  }
  return out
}

/** Spellings no numeric parameter takes: non-finite, overflowing, hex/binary/octal, odd signs or characters. */
export const NEVER_A_NUMBER = [
  'Infinity',
  '-Infinity',
  '+Infinity',
  'infinity',
  'NaN',
  '-NaN',
  '1e309',
  '-1e309',
  '1E400',
  '0x10',
  '0X1f',
  '-0x10',
  '0b101',
  '0o17',
  '1_000',
  '1,5',
  '\u0661', // Arabic-Indic digit one
  '１', // fullwidth digit one
  'null',
  'true',
  '[]',
  '9'.repeat(400),
]

/** Spellings a whole number never takes (a number parameter may: 1e1 is ten). */
const NOT_A_WHOLE_NUMBER = ['1e1', '1E2', '1.0', '1.5', '.5', '5.']

/** A value a parameter takes, written plainly in decimal. */
export function goodSpelling(s: NumberSchema): fc.Arbitrary<string> {
  const whole = fc.integer({ min: Math.ceil(s.minimum), max: Math.floor(s.maximum) })
  if (s.type === 'integer') return whole.map(String)
  return fc.oneof(whole.map(String), fc.double({ min: s.minimum, max: s.maximum, noNaN: true }).map(String))
}

/** The spellings of a (valid) value that are not one plain decimal: whitespace, signs, hex. */
function disguised(value: string): string[] {
  const n = Number(value)
  const hex =
    Number.isInteger(n) && n >= 0 ? [`0x${n.toString(16)}`, `0x${n.toString(16).toUpperCase()}`] : []
  return [` ${value}`, `${value} `, `\t${value}`, `${value}\n`, `+${value}`, `${value}\u0000`, ...hex]
}

/** The deterministic table of bad spellings of one parameter (every route gets each of these). */
export function badSpellingTable(s: NumberSchema): string[] {
  const low = Math.ceil(s.minimum)
  const high = Math.floor(s.maximum)
  const out = [
    ...NEVER_A_NUMBER,
    ...(s.type === 'integer' ? NOT_A_WHOLE_NUMBER : []),
    ...disguised(String(Math.max(low, Math.min(high, 1)))),
    String(BigInt(high) + 1n),
    String(BigInt(low) - 1n),
    `${high}0`,
  ]
  return out
}

/** Random bad spellings of one parameter: the table, overflowing exponents, out of bounds, disguised. */
export function badSpelling(s: NumberSchema): fc.Arbitrary<string> {
  const low = BigInt(Math.ceil(s.minimum))
  const high = BigInt(Math.floor(s.maximum))
  return fc.oneof(
    fc.constantFrom(...badSpellingTable(s)),
    fc
      .tuple(fc.constantFrom('', '-'), fc.integer({ min: 1, max: 9 }), fc.integer({ min: 309, max: 99_999 }))
      .map(([sign, d, e]) => `${sign}${d}e${e}`),
    fc.bigInt({ min: high + 1n, max: 2n ** 90n }).map(String),
    fc.bigInt({ min: -(2n ** 90n), max: low - 1n }).map(String),
    goodSpelling(s).chain((v) => fc.constantFrom(...disguised(v))),
  )
}

function jsonNumber(text: string): number | undefined {
  try {
    const v = JSON.parse(text) as unknown
    return typeof v === 'number' ? v : undefined
  } catch {
    return undefined
  }
}

/** Whether a number is a value the parameter takes. */
function obeys(n: number, s: NumberSchema): boolean {
  return (
    Number.isFinite(n) && n >= s.minimum && n <= s.maximum && (s.type === 'number' || Number.isInteger(n))
  )
}

/** How a test sends one parameter's value: a query or path string, or a JSON body (raw text). */
export interface SpelledRequest {
  method: string
  url: string
  payload?: string
}

/** Fills a route's path parameters: the numeric parameter's value, plausible strings elsewhere. */
function fillPath(url: string, values: Record<string, string>): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? 'buildings'))
}

/** Path parameters that are numbers take a valid value unless it is the one under test. */
function validPathValues(p: NumericParam, all: readonly NumericParam[]): Record<string, string> {
  const values: Record<string, string> = {}
  for (const other of all)
    if (other.url === p.url && other.method === p.method && other.part === 'params')
      values[other.name] = String(Math.max(0, Math.ceil(other.schema.minimum)))
  return values
}

/**
 * The request that gives parameter `p` the spelling(s) `values` (several: the parameter repeated in a
 * query, an array in a body). Body values that are JSON number literals (1e309) are sent as such.
 */
export function spelledRequest(
  p: NumericParam,
  values: readonly string[],
  all: readonly NumericParam[],
): SpelledRequest {
  const path = validPathValues(p, all)
  if (p.part === 'params')
    return { method: p.method, url: fillPath(p.url, { ...path, [p.name]: values[0] ?? '' }) }
  const url = fillPath(p.url, path)
  if (p.part === 'querystring') {
    const q = values.map((v) => `${encodeURIComponent(p.name)}=${encodeURIComponent(v)}`).join('&')
    return { method: p.method, url: `${url}?${q}` }
  }
  // A JSON number literal goes as such when JSON reads it as a bad value (1e309 → Infinity, 1.5
  // for a whole number, past a bound) or as itself; otherwise (1.0, 1e1: JSON reads 1, 10) as a string.
  const literal = (v: string) => {
    const n = jsonNumber(v)
    return n !== undefined && (!obeys(n, p.schema) || String(n) === v) ? v : JSON.stringify(v)
  }
  const value = values.length === 1 ? literal(values[0] ?? '') : `[${values.map(literal).join(',')}]`
  return { method: p.method, url, payload: `{${JSON.stringify(p.name)}:${value}}` }
}

/** The parameter an error body names (the API's `parameter`, OGC's, or the SDK's `error_details`). */
export function namedParameter(body: string): string | undefined {
  try {
    const json = JSON.parse(body) as { parameter?: string; error_details?: { parameter?: string } }
    return json.parameter ?? json.error_details?.parameter
  } catch {
    return undefined
  }
}

/** Sends a spelled request; the answer's status and the parameter its body names. */
export async function sendSpelled(
  app: FastifyInstance,
  r: SpelledRequest,
  headers: Record<string, string>,
): Promise<{ status: number; parameter: string | undefined; body: string }> {
  const res = await app.inject({
    method: r.method as 'GET',
    url: r.url,
    payload: r.payload,
    headers: r.payload === undefined ? headers : { ...headers, 'content-type': 'application/json' },
  })
  return { status: res.statusCode, parameter: namedParameter(res.body), body: res.body }
}
