import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import ts from 'typescript'
import { describe, expect, expectTypeOf, it } from 'vitest'
import { compileConfig, type CompiledConfig } from '../../scripts/config/compileConfig'
import { emitConfigModule } from '../../scripts/config/emitConfigModule'
import type { CircleLegend, Dataset, LayerDefinition, MapLayer, TableDefinition } from '../../src/generated/types'

// tests/config/fixtures/valid-new-layer adds a Substations layer (dataset, source, legend, map layer,
// layer entry and table) in YAML only; nothing else changes.
const dir = path.join(import.meta.dirname, 'fixtures/valid-new-layer')
const typesFile = path.resolve(import.meta.dirname, '../../src/generated/types.ts')

function compiled(): CompiledConfig {
  const result = compileConfig(dir)
  expect(result.errors).toEqual([])
  if (!result.ok) throw new Error('fixture does not compile')
  return result.config
}

const options: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ['lib.es2022.d.ts'],
  types: [],
}
const host = ts.createCompilerHost(options)
const libCache = new Map<string, ts.SourceFile | undefined>()
const readSource = host.getSourceFile.bind(host)
host.getSourceFile = (file, version, onError) => {
  if (!file.includes('/typescript/lib/')) return readSource(file, version, onError)
  if (!libCache.has(file)) libCache.set(file, readSource(file, version, onError))
  return libCache.get(file)
}

/** Type-checks an emitted config module against the generated types; returns the diagnostics. */
function typeCheck(moduleText: string): string[] {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-typed-'))
  fs.copyFileSync(typesFile, path.join(tmp, 'types.ts'))
  fs.writeFileSync(path.join(tmp, 'config.ts'), moduleText)
  const program = ts.createProgram([path.join(tmp, 'config.ts')], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

describe('a new layer, table and legend added in YAML only', () => {
  it('comes out of the compiler complete', () => {
    const { layers, tables } = compiled()
    const layer = layers.layers.find((l) => l.id === 'substations')
    expect(layer).toMatchObject({ name: 'Substations', category: 'asset_data', intensity: 80, table: 'substations', layers: ['substations'] })
    expect(layers.mapLayers.find((m) => m.id === 'substations')).toMatchObject({
      source: 'substations_mvt',
      paint: { type: 'circle', color: '#e599f7', radius: 6, hitRadius: 12, opacity: 0.9 },
      legend: 'substations',
    })
    expect(layers.legends.find((l) => l.id === 'substations')).toEqual({
      id: 'substations',
      type: 'circle',
      title: 'Substations',
      items: [{ label: 'Substation', color: '#e599f7' }],
    })
    const table = tables.tables.find((t) => t.id === 'substations')
    expect(table?.columns.map((c) => c.key)).toEqual(['bbox', 'name', 'voltage_kv', 'commissioned'])
    expect(layers.sources.find((s) => s.id === 'substations_mvt')).toMatchObject({ demoPath: 'demo/asset_data/substations' })
  })

  it('is typed by the generated interfaces', () => {
    const { layers, tables } = compiled()
    expectTypeOf(layers.layers[0]).toEqualTypeOf<LayerDefinition | undefined>()
    expectTypeOf(layers.mapLayers[0]).toEqualTypeOf<MapLayer | undefined>()
    expectTypeOf(layers.datasets[0]).toEqualTypeOf<Dataset | undefined>()
    expectTypeOf(tables.tables[0]).toEqualTypeOf<TableDefinition | undefined>()
    const legend = layers.legends.find((l) => l.id === 'substations')
    if (legend?.type !== 'circle') throw new Error('expected a circle legend')
    expectTypeOf(legend).toEqualTypeOf<CircleLegend>()
  })

  it('emits a module that type-checks against the generated types', () => {
    expect(typeCheck(emitConfigModule(compiled()))).toEqual([])
  }, 120_000)

  it('the type check fails when the data does not fit the types', () => {
    const config = compiled()
    const broken = { ...config, layers: { ...config.layers, layers: config.layers.layers.map(({ name: _name, ...rest }) => rest) } }
    const diagnostics = typeCheck(emitConfigModule(broken as unknown as CompiledConfig))
    expect(diagnostics.join('\n')).toMatch(/'name' is missing/)
  }, 120_000)
})
