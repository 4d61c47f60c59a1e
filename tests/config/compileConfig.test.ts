import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileConfig } from '../../scripts/config/compileConfig'
import { formatDocPath, formatProblem } from '../../scripts/config/problem'
import { envGatedLayerIds, envGatedSourceIds } from '../../src/shared/config'

const repo = path.resolve(import.meta.dirname, '../..')
const base = path.join(import.meta.dirname, 'fixtures/base')

/** A temp copy of the base fixture with `edit` applied to one file. */
function variant(file: string, edit: (text: string) => string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-config-'))
  for (const f of fs.readdirSync(base)) fs.copyFileSync(path.join(base, f), path.join(dir, f))
  const target = path.join(dir, file)
  fs.writeFileSync(target, edit(fs.readFileSync(target, 'utf8')))
  return dir
}

describe('compileConfig on the shipped config', () => {
  const result = compileConfig()

  it('is valid', () => {
    expect(result.errors.map((p) => formatProblem(p, repo))).toEqual([])
    expect(result.ok).toBe(true)
  })

  it('holds the catalogue of the spec', () => {
    const { layers, tables } = result.ok ? result.config : expect.unreachable()
    // Besides them, ten layers of the utility's own servers (one per external source kind),
    // hidden while their variable is unset.
    const gated = envGatedLayerIds(layers.layers, envGatedSourceIds(layers.sources))
    expect(gated.size).toBe(10)
    expect(layers.layers.filter((l) => !gated.has(l.id))).toHaveLength(20)
    // The spec's 17 default layers, plus Observed Smoke (HMS) added with the live feeds.
    const listed = layers.layers.filter((l) => l.inDefaultList && !gated.has(l.id)).map((l) => l.id)
    expect(listed).toHaveLength(18)
    expect(listed).toContain('observed_smoke')
    expect(layers.mapLayers).toHaveLength(29 + 10)
    expect(layers.categories).toHaveLength(7)
    expect(layers.layersWithoutTable).toHaveLength(7 + 9)
    expect(layers.layers.filter((l) => l.table === undefined).map((l) => l.id).sort()).toEqual(
      [...layers.layersWithoutTable].sort(),
    )
    expect(tables.tables).toHaveLength(13 + 1)
    expect(layers.layers.find((l) => l.id === 'psps')?.subLayers).toHaveLength(7)
  })
})

describe('compileConfig problems', () => {
  it('reports every problem of a file, not just the first', () => {
    const dir = variant('layers.yaml', (t) => t.replace('intensity: 100\n', 'intensity: high\n').replace('row: 1 }', 'row: 0 }'))
    const result = compileConfig(dir)
    expect(result.errors.map((p) => p.docPath)).toEqual(['categories[0].row', 'layers[0].intensity'])
  })

  it('reports problems in several files at once, sorted by file and line', () => {
    const dir = variant('tables.yaml', (t) => t.replace('filterable: true }', 'filterable: yes please }'))
    fs.writeFileSync(path.join(dir, 'theme.yaml'), '')
    const lines = compileConfig(dir).errors.map((p) => formatProblem(p, dir))
    expect(lines).toEqual([
      'tables.yaml:10:71  tables[0].columns[1].filterable  must be boolean, got string "yes please"',
      'theme.yaml:1:1  (root)  file is empty: expected a mapping of top-level keys',
    ])
  })

  it('treats a file of only comments as empty and a list as the wrong shape', () => {
    const dir = variant('tables.yaml', () => '# nothing here\n')
    fs.writeFileSync(path.join(dir, 'theme.yaml'), '- a\n- b\n')
    const messages = compileConfig(dir).errors.map((p) => p.message)
    expect(messages).toEqual(['file is empty: expected a mapping of top-level keys', 'expected a mapping of top-level keys at the top of the file'])
  })

  it('reports a missing config directory as five missing files', () => {
    const result = compileConfig(path.join(os.tmpdir(), 'emberline-no-such-dir'))
    expect(result.errors.map((p) => `${path.basename(p.file)} ${p.message}`)).toEqual([
      'app.yaml file not found',
      'layers.yaml file not found',
      'operations.yaml file not found',
      'tables.yaml file not found',
      'theme.yaml file not found',
    ])
  })

  it('locates problems the same way when the parsed data comes from the cache', () => {
    const unique = `# ${process.pid}-${Date.now()}\n` // new content: the first run parses, the second reads the cache
    const dir = variant('layers.yaml', (t) => t.replace('category: active_fires', 'category: weather') + unique)
    const first = compileConfig(dir).errors.map((p) => formatProblem(p, dir))
    const second = compileConfig(dir).errors.map((p) => formatProblem(p, dir))
    expect(first).toEqual(['layers.yaml:111:15  layers[1].category  unknown category \'weather\''])
    expect(second).toEqual(first)
  })

  it('names document paths with indexes and quoted odd keys', () => {
    expect(formatDocPath([])).toBe('(root)')
    expect(formatDocPath(['layers', 3, 'subLayers', 0, 'id'])).toBe('layers[3].subLayers[0].id')
    expect(formatDocPath(['map', 'epss-risk-score'])).toBe('map.epss-risk-score')
    expect(formatDocPath(['map', 'a b'])).toBe('map["a b"]')
  })
})

describe('validate-config CLI', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/config/validate.ts', ...args], { cwd: repo, encoding: 'utf8' })

  it('exits 0 with a one-line summary on a valid config', () => {
    const out = run('tests/config/fixtures/base')
    expect(out.status).toBe(0)
    expect(out.stdout.trim().split('\n')).toHaveLength(1)
    expect(out.stdout).toMatch(/^OK tests\/config\/fixtures\/base: 2 layers, 3 map layers/)
  })

  it('exits 1 with one line per problem and no stack trace on a broken config', () => {
    const out = run('tests/config/fixtures/invalid-yaml-syntax')
    expect(out.status).toBe(1)
    const lines = out.stdout.trim().split('\n')
    expect(lines[0]).toMatch(/^tests\/config\/fixtures\/invalid-yaml-syntax\/layers\.yaml:60:129 {2}\(root\) {2}YAML syntax error: /)
    expect(lines).toHaveLength(2)
    expect(out.stderr).toMatch(/^tests\/config\/fixtures\/invalid-yaml-syntax: 2 problems$/m)
    expect(out.stdout + out.stderr).not.toMatch(/\n\s+at /)
  })
})
