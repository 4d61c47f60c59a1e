import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSchema } from '../../scripts/config/schemaValidate'

// A setting in config/app.yaml that no code reads is a promise the product does not keep (issue #29:
// brand.tagline, identity.cookies.sameSite, toasts.pauseOnHover, messages.captchaRequired). Every
// key the app schema declares must be named somewhere a reader could use it: in the code that runs
// (src/ and scripts/, tests and src/generated left out) or, for a text keyed by name, as a value in
// config/*.yaml (a layer panel's `scoreBox: epssScoreBox`). A word match is generous — a key named
// like a common word passes — but a key whose name appears nowhere is certainly read by nothing.
// Only app.yaml: the theme's colours are read wholesale (every colour becomes a CSS variable).

type Json = { [k: string]: unknown }

const root = path.resolve(import.meta.dirname, '../..')

/** Every property the schema declares, as `a.b.c` paths (array items and $refs followed). */
function declaredKeys(node: unknown, defs: Record<string, Json>, at: string, out: string[] = []): string[] {
  if (!node || typeof node !== 'object') return out
  const schema = node as Json
  if (typeof schema.$ref === 'string') return declaredKeys(defs[schema.$ref.replace('#/definitions/', '')], defs, at, out)
  for (const [key, sub] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    const here = at ? `${at}.${key}` : key
    out.push(here)
    declaredKeys(sub, defs, here, out)
  }
  for (const branch of ['items', 'additionalProperties'] as const) declaredKeys(schema[branch], defs, at, out)
  for (const branch of ['oneOf', 'anyOf', 'allOf'] as const)
    for (const sub of (schema[branch] ?? []) as unknown[]) declaredKeys(sub, defs, at, out)
  return out
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (full !== path.join(root, 'src/generated') && entry.name !== 'node_modules') sourceFiles(full, out)
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(full)
  }
  return out
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('config/app.yaml keys', () => {
  const schema = readSchema('app')
  const keys = [...new Set(declaredKeys(schema, (schema.definitions ?? {}) as Record<string, Json>, ''))]
  const code = [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'scripts'))]
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n')
  const yaml = fs
    .readdirSync(path.join(root, 'config'))
    .filter((name) => name.endsWith('.yaml'))
    .map((name) => fs.readFileSync(path.join(root, 'config', name), 'utf8'))
    .join('\n')

  it('finds the keys the schema declares', () => {
    expect(keys).toEqual(expect.arrayContaining(['brand.tagline', 'toasts.autoCloseMs', 'texts.epssScoreBox']))
  })

  it('has no key that nothing reads', () => {
    const unread = keys.filter((key) => {
      const name = escape(key.split('.').at(-1) ?? key)
      const inCode = new RegExp(`\\b${name}\\b`).test(code)
      const referencedInConfig = new RegExp(`\\b${name}\\b(?!\\s*:)`).test(yaml)
      return !inCode && !referencedInConfig
    })
    expect(unread).toEqual([])
  })
})
