import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { renderConfigReference } from '../../scripts/config/configReference'
import { CONFIG_FILES, readSchema } from '../../scripts/config/schemaValidate'

type Json = { [k: string]: unknown }

/** Every sub-schema of a schema, with a readable location. */
function walk(node: unknown, at: string, out: [string, Json][] = []): [string, Json][] {
  if (Array.isArray(node)) node.forEach((n, i) => walk(n, `${at}[${i}]`, out))
  else if (node && typeof node === 'object') {
    out.push([at, node as Json])
    for (const [k, v] of Object.entries(node as Json)) if (k !== 'enum' && k !== 'const') walk(v, `${at}/${k}`, out)
  }
  return out
}

const schemas = CONFIG_FILES.map((name) => [name, readSchema(name)] as const)

describe('schema/*.schema.json', () => {
  it.each(schemas)('%s: every property has a description', (_name, schema) => {
    const defs = (schema.definitions ?? {}) as Record<string, Json>
    const missing: string[] = []
    for (const [at, node] of walk(schema, '#')) {
      for (const [key, prop] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
        const target = typeof prop.$ref === 'string' ? defs[prop.$ref.replace('#/definitions/', '')] : undefined
        if (!prop.description && !target?.description) missing.push(`${at}/properties/${key}`)
      }
    }
    expect(missing).toEqual([])
  })

  it.each(schemas)('%s: every object rejects unknown keys or types its extra keys', (_name, schema) => {
    const open = walk(schema, '#')
      .filter(([, n]) => n.type === 'object' && !n.oneOf)
      .filter(([, n]) => n.additionalProperties !== false && typeof n.additionalProperties !== 'object')
      .map(([at]) => at)
    expect(open).toEqual([])
  })

  it('gives ids and colours patterns', () => {
    const layers = readSchema('layers') as { definitions: Record<string, Json> }
    expect(layers.definitions.id?.pattern).toBe('^[a-z][a-z0-9_]*$')
    const color = new RegExp(String(layers.definitions.colorRef?.pattern))
    for (const ok of ['#a1b2c3', '#a1b2c3d4', 'fireIntensity.high', 'epss-risk-score', 'forecastedFires.90']) expect(ok).toMatch(color)
    for (const bad of ['#a1b2c', '#a1b2c3d', 'a b', '.x', '']) expect(bad).not.toMatch(color)
  })
})

describe('docs/config-reference.md', () => {
  const text = fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/config-reference.md'), 'utf8')

  it('is up to date with the schemas (run `npm run config:docs`)', () => {
    expect(text).toBe(renderConfigReference())
  })

  it.each(schemas)('documents every property of %s', (_name, schema) => {
    const keys = new Set(walk(schema, '#').flatMap(([, n]) => Object.keys((n.properties ?? {}) as Json)))
    const undocumented = [...keys].filter((k) => !text.includes(`| \`${k}\` |`))
    expect(undocumented).toEqual([])
  })
})
