import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileConfig } from '../../scripts/config/compileConfig'
import { renderConfigReference } from '../../scripts/config/configReference'
import { requireDefaulted } from '../../scripts/config/generateTypes'
import { formatProblem } from '../../scripts/config/problem'
import { readSchema } from '../../scripts/config/schemaValidate'

const base = path.join(import.meta.dirname, 'fixtures/base')
const types = fs.readFileSync(path.resolve(import.meta.dirname, '../../src/generated/types.ts'), 'utf8')

/** The settings a sidebar entry may leave out, with the values the compiler fills in. */
const DEFAULTS = {
  inDefaultList: true,
  visible: false,
  isOpen: false,
  intensity: 100,
  showLayerIntensity: true,
  showSubLayerIntensity: false,
  subLayerIntensity: 100,
}

/** The base fixture with the first sidebar entry shortened to `kept` of the defaulted settings. */
function shortened(kept: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-defaults-'))
  for (const f of fs.readdirSync(base)) fs.copyFileSync(path.join(base, f), path.join(dir, f))
  const file = path.join(dir, 'layers.yaml')
  const text = fs.readFileSync(file, 'utf8')
  const settings = /( {4}inDefaultList: true\n[\s\S]*? {4}subLayerIntensity: 100\n)/.exec(text)?.[1]
  if (!settings) throw new Error('fixture changed: no settings block in the first layer')
  fs.writeFileSync(file, text.replace(settings, kept))
  return dir
}

describe('sidebar entries without the usual settings', () => {
  it('compile with the schema defaults filled in, and explicit values kept', () => {
    const result = compileConfig(shortened('    visible: true\n    intensity: 60\n'))
    expect(result.errors).toEqual([])
    const [first, second] = result.ok ? result.config.layers.layers : expect.unreachable()
    expect(first).toMatchObject({ ...DEFAULTS, visible: true, intensity: 60 })
    expect(second).toMatchObject({ inDefaultList: true, intensity: 100 }) // spelled out in full: unchanged
  })

  it('still locates a bad value in a shortened entry by line and column', () => {
    const dir = shortened('    intensity: high\n')
    expect(compileConfig(dir).errors.map((p) => formatProblem(p, dir))).toEqual([
      'layers.yaml:91:16  layers[0].intensity  must be number, got string "high"',
    ])
  })

  it('has a schema default for each of those settings, outside any union branch', () => {
    const def = (readSchema('layers').definitions as Record<string, { properties: Record<string, { default?: unknown }>; required: string[] }>)
      .layerDefinition
    for (const [key, value] of Object.entries(DEFAULTS)) {
      expect(def?.properties[key]?.default, key).toEqual(value)
      expect(def?.required, key).not.toContain(key)
    }
  })
})

describe('generated types of defaulted settings', () => {
  it('declares them non-optional: the renderer can read them without a fallback', () => {
    const body = /export interface LayerDefinition \{([\s\S]*?)\n\}/.exec(types)?.[1] ?? ''
    for (const key of Object.keys(DEFAULTS)) expect(body).toMatch(new RegExp(`^\\s+readonly ${key}: (boolean|number)$`, 'm'))
    expect(body).toMatch(/^\s+readonly table\?: string$/m) // a setting without a default stays optional
  })

  it('requireDefaulted adds properties with a default to required, at every depth, without touching the input', () => {
    const schema = {
      type: 'object',
      required: ['a'],
      properties: {
        a: { type: 'string' },
        b: { type: 'boolean', default: false },
        c: { type: 'number' },
        d: { type: 'object', properties: { e: { type: 'number', default: 1 } } },
        // a property named `default` is a schema, not a default value
        default: { type: 'object', properties: { f: { type: 'string', default: 'g' } } },
      },
      definitions: { x: { type: 'object', properties: { y: { $ref: '#/definitions/z', default: 'q' } } } },
    }
    const copy = structuredClone(schema)
    const out = requireDefaulted(schema) as typeof schema & { properties: { d: { required?: string[] } } }
    expect(out.required).toEqual(['a', 'b'])
    expect(out.properties.d.required).toEqual(['e'])
    expect((out.properties.default as { required?: string[] }).required).toEqual(['f'])
    expect((out.definitions.x as { required?: string[] }).required).toEqual(['y'])
    expect(schema).toEqual(copy)
  })
})

describe('docs/config-reference.md', () => {
  it('names the default of each defaulted setting', () => {
    const text = renderConfigReference()
    expect(text).toContain('| `intensity` | number | no (default `100`) |')
    expect(text).toContain('| `inDefaultList` | boolean | no (default `true`) |')
  })
})
