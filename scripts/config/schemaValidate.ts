import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import type { PathSegment, Problem } from './problem'
import type { YamlSource } from './yamlSource'

export const CONFIG_FILES = ['app', 'layers', 'tables', 'theme', 'operations', 'feeds', 'fuel-models', 'fire'] as const
export type ConfigName = (typeof CONFIG_FILES)[number]
/** Files a config directory may leave out (compiled as their empty default). */
export const OPTIONAL_CONFIG_FILES: ReadonlySet<ConfigName> = new Set(['feeds', 'fuel-models', 'fire'])

export const schemaDir = path.resolve(import.meta.dirname, '../../schema')

let validators: Map<ConfigName, ValidateFunction> | null = null
const cacheDir = path.resolve(import.meta.dirname, '../../node_modules/.cache/emberline-config')
// useDefaults: a key the YAML leaves out gets its schema `default` (ajv ignores defaults inside oneOf/anyOf
// branches — and strict mode refuses them there — so defaults belong on plain object properties).
const AJV_OPTIONS = { allErrors: true, strict: true, allowUnionTypes: true, discriminator: true, verbose: true, useDefaults: true } as const

export function readSchema(name: ConfigName): Record<string, unknown> {
  return JSON.parse(fs.readFileSync(path.join(schemaDir, `${name}.schema.json`), 'utf8')) as Record<string, unknown>
}

/**
 * Compiling the schemas costs about a second of CPU, so the compiled validators are cached as
 * standalone code under node_modules/.cache, keyed by a hash of the schemas and the ajv version.
 */
function loadValidators(): Map<ConfigName, ValidateFunction> {
  const require = createRequire(import.meta.url)
  const schemas = CONFIG_FILES.map((n) => [n, readSchema(n)] as const)
  const ajvVersion = (require('ajv/package.json') as { version: string }).version
  const hash = createHash('sha256').update(JSON.stringify([ajvVersion, AJV_OPTIONS, schemas])).digest('hex').slice(0, 16)
  const file = path.join(cacheDir, `validators-${hash}.cjs`)
  if (!fs.existsSync(file)) {
    const ajv = new Ajv({ ...AJV_OPTIONS, code: { source: true } })
    for (const [n, schema] of schemas) ajv.addSchema(schema, n)
    const code = standaloneCode(ajv, Object.fromEntries(CONFIG_FILES.map((n) => [n, n])))
    try {
      fs.mkdirSync(cacheDir, { recursive: true })
      const tmp = `${file}.${process.pid}.tmp`
      fs.writeFileSync(tmp, code)
      fs.renameSync(tmp, file)
    } catch {
      // read-only checkout: use the validators compiled in memory
      return new Map(CONFIG_FILES.map((n) => [n, ajv.getSchema(n) as ValidateFunction]))
    }
  }
  const mod = require(file) as Record<string, ValidateFunction>
  return new Map(CONFIG_FILES.map((n) => [n, mod[n] as ValidateFunction]))
}

function getValidator(name: ConfigName): ValidateFunction {
  validators ??= loadValidators()
  const v = validators.get(name)
  if (!v) throw new Error(`no schema for ${name}`)
  return v
}

function pointerToSegments(pointer: string): PathSegment[] {
  if (pointer === '') return []
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
}

function describeValue(v: unknown): string {
  if (v === null) return 'null'
  if (Array.isArray(v)) return 'a list'
  if (typeof v === 'object') return 'a mapping'
  return `${typeof v} ${JSON.stringify(v)}`
}

function schemaHint(e: ErrorObject): string {
  const parent = e.parentSchema as { title?: string; description?: string } | undefined
  return parent?.description ? ` — ${parent.description}` : ''
}

function messageFor(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>
  switch (e.keyword) {
    case 'additionalProperties':
      return `unknown key '${String(p.additionalProperty)}'`
    case 'required':
      return `missing required key '${String(p.missingProperty)}'`
    case 'type':
      return `must be ${String(p.type).replace(',', ' or ')}, got ${describeValue(e.data)}`
    case 'enum':
      return `${JSON.stringify(e.data)} is not allowed; must be one of: ${(p.allowedValues as unknown[]).join(', ')}`
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}`
    case 'pattern':
      return `${JSON.stringify(e.data)} is not valid${schemaHint(e)}`
    case 'propertyNames':
      return `key ${JSON.stringify(p.propertyName)} is not a valid name`
    default:
      return e.message ?? e.keyword
  }
}

/** Drops the noise of union branches: keep the errors of the branch that matched the value's type. */
function reduceErrors(errors: ErrorObject[]): ErrorObject[] {
  const paths = (k: string) => new Set(errors.filter((e) => e.keyword === k).map((e) => e.instancePath))
  const nonType = new Set(errors.filter((e) => !['type', 'anyOf', 'oneOf', 'discriminator'].includes(e.keyword)).map((e) => e.instancePath))
  const enumPaths = paths('enum')
  return errors.filter((e) => {
    if (e.keyword === 'propertyNames') return true
    if (e.keyword === 'anyOf' || e.keyword === 'oneOf') {
      return !errors.some((o) => o !== e && o.instancePath.startsWith(e.instancePath) && !['anyOf', 'oneOf', 'type'].includes(o.keyword))
    }
    if (e.keyword === 'discriminator') return !enumPaths.has(`${e.instancePath}/type`)
    if (e.keyword === 'type' && enumPaths.has(e.instancePath)) return false
    if (e.keyword === 'type' && /anyOf|oneOf/.test(e.schemaPath)) return !nonType.has(e.instancePath)
    if (e.keyword === 'pattern' && e.schemaPath.includes('propertyNames')) return false
    return true
  })
}

/** A file that leaves every key out, as the schema's defaults fill it (an optional file that is absent). */
export function schemaDefaults(name: ConfigName): Record<string, unknown> {
  const data: Record<string, unknown> = {}
  const validate = getValidator(name)
  if (!validate(data)) throw new Error(`config/${name}.yaml: an empty file does not match its schema`)
  return data
}

/** Validates one parsed file against its schema; every error located in the YAML. */
export function validateSchema(name: ConfigName, source: YamlSource): Problem[] {
  const validate = getValidator(name)
  if (validate(source.data)) return []
  const seen = new Set<string>()
  const problems: Problem[] = []
  for (const e of reduceErrors(validate.errors ?? [])) {
    const segments = pointerToSegments(e.instancePath)
    const p = e.params as Record<string, unknown>
    let problem: Problem
    if (e.keyword === 'additionalProperties') {
      problem = source.problemAt([...segments, String(p.additionalProperty)], messageFor(e), true)
    } else if (e.keyword === 'propertyNames') {
      problem = source.problemAt([...segments, String(p.propertyName)], messageFor(e), true)
    } else {
      problem = source.problemAt(segments, messageFor(e))
    }
    const id = `${problem.line}:${problem.col}:${problem.message}`
    if (!seen.has(id)) problems.push(problem)
    seen.add(id)
  }
  return problems
}
