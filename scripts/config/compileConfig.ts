import fs from 'node:fs'
import path from 'node:path'
import type {
  AppConfig,
  FeedsConfig,
  FireConfig,
  FuelModelsConfig,
  LayersConfig,
  OperationsConfig,
  TablesConfig,
  ThemeConfig,
} from '../../src/generated/types'
import { buildIndex } from './catalogueIndex'
import { checkApp, checkAppReferences, checkTheme } from './checkApp'
import { checkCatalogue } from './checkCatalogue'
import { checkFeeds } from './checkFeeds'
import { checkFire } from './checkFire'
import { checkFuelModels } from './checkFuelModels'
import { CheckContext } from './checkContext'
import { checkMapLayers } from './checkMapLayers'
import { checkOperations } from './checkOperations'
import { checkSidebar } from './checkSidebar'
import { checkTables } from './checkTables'
import { sortProblems, type Problem } from './problem'
import { CONFIG_FILES, OPTIONAL_CONFIG_FILES, schemaDefaults, validateSchema, type ConfigName } from './schemaValidate'
import { loadYaml, type YamlSource } from './yamlSource'

/** The whole catalogue, as the generated module exports it. */
export interface CompiledConfig {
  app: AppConfig
  layers: LayersConfig
  tables: TablesConfig
  theme: ThemeConfig
  operations: OperationsConfig
  /** config/feeds.yaml (optional: no feeds when the file is absent). */
  feeds: FeedsConfig
  /** config/fuel-models.yaml (optional: no fuel models when the file is absent). */
  fuelModels: FuelModelsConfig
  /** config/fire.yaml (optional: the schema's defaults when the file is absent). */
  fire: FireConfig
}

export type CompileResult = { ok: true; errors: []; config: CompiledConfig } | { ok: false; errors: Problem[]; config?: undefined }

export const defaultConfigDir = path.resolve(import.meta.dirname, '../../config')

/**
 * Parses config/{app,layers,tables,theme,operations,feeds,fuel-models,fire}.yaml (feeds.yaml, fuel-models.yaml and fire.yaml optional), validates each against its JSON Schema (all errors),
 * then — once every file matches its schema — checks the references between them.
 * Never throws for bad input: every problem comes back located as file:line:col.
 */
export function compileConfig(dir: string = defaultConfigDir): CompileResult {
  const sources: Partial<Record<ConfigName, YamlSource>> = {}
  const errors: Problem[] = []
  for (const name of CONFIG_FILES) {
    const file = path.resolve(dir, `${name}.yaml`)
    if (OPTIONAL_CONFIG_FILES.has(name) && !fs.existsSync(file)) continue
    const loaded = loadYaml(file)
    if (!loaded.ok) {
      errors.push(...loaded.problems)
      continue
    }
    const schemaErrors = validateSchema(name, loaded.source)
    errors.push(...schemaErrors)
    if (schemaErrors.length === 0) sources[name] = loaded.source
  }
  const { app, layers, tables, theme, operations, feeds } = sources
  const fuelModels = sources['fuel-models']
  const fire = sources.fire
  if (errors.length > 0 || !app || !layers || !tables || !theme || !operations) return { ok: false, errors: sortProblems(errors) }
  const config: CompiledConfig = {
    app: app.data as AppConfig,
    layers: layers.data as LayersConfig,
    tables: tables.data as TablesConfig,
    theme: theme.data as ThemeConfig,
    operations: operations.data as OperationsConfig,
    feeds: (feeds?.data ?? { territory: { name: 'none', bbox: [-180, -90, 180, 90] }, feeds: [] }) as FeedsConfig,
    fuelModels: (fuelModels?.data ?? { fuelModels: [] }) as FuelModelsConfig,
    fire: (fire?.data ?? schemaDefaults('fire')) as FireConfig,
  }
  const ctx = new CheckContext({
    app,
    layers,
    tables,
    theme,
    operations,
    ...(feeds ? { feeds } : {}),
    ...(fuelModels ? { 'fuel-models': fuelModels } : {}),
    ...(fire ? { fire } : {}),
  })
  const ix = buildIndex(ctx, config.app, config.layers, config.tables, config.theme)
  checkCatalogue(ix)
  checkMapLayers(ix)
  checkSidebar(ix)
  checkTables(ix)
  checkApp(ix)
  checkAppReferences(ix)
  checkTheme(ix)
  checkOperations(ix, config.operations)
  checkFeeds(ix, config.feeds)
  checkFuelModels(ctx, config.fuelModels)
  if (fire) checkFire(ix, config.fire)
  if (ctx.problems.length > 0) return { ok: false, errors: sortProblems(ctx.problems) }
  return { ok: true, errors: [], config }
}
