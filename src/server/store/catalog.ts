import {
  layersConfig,
  tablesConfig,
  type Column,
  type Dataset,
  type DatasetField,
  type MvtSource,
  type TableDefinition,
} from '../../shared/config'

/** The kinds of attribute a dataset feature carries (dates are ISO 8601 strings). */
export type FieldType = DatasetField['type']
export type GeometryKind = Dataset['geometry']
export type FieldDef = DatasetField

/** A dataset of config/layers.yaml; test stores and catalogs read from a CONFIG_DIR may leave out the title. */
export type DatasetDef = Omit<Dataset, 'title'> & Partial<Pick<Dataset, 'title'>>

/**
 * Per-zoom content policy of a vector source (see docs/data-server.md). Not a config key: the
 * schema has no `generalize`, so only catalogs built in code (tests, benchmarks) set it.
 */
export interface GeneralizeDef {
  /** At this zoom and below, features become per-cell aggregates (count) instead of footprints. */
  readonly aggregateMaxZoom?: number
  /** Up to this zoom, features smaller than `minSizePx` pixels are dropped (thinning). */
  readonly thinMaxZoom?: number
  readonly minSizePx?: number
  /** Feature budget of a thinned tile at thinMaxZoom (halved per zoom below). */
  readonly thinFeatures?: number
}

/** An mvt source of config/layers.yaml, as the data server cuts its tiles. */
export type VectorSourceDef = Pick<
  MvtSource,
  'id' | 'path' | 'demoPath' | 'dataset' | 'minzoom' | 'maxzoom'
> & {
  readonly generalize?: GeneralizeDef
}

/** What the data server reads of a table of config/tables.yaml: its dataset and filterable columns. */
export type TableDef = Pick<TableDefinition, 'id' | 'dataset'> & {
  readonly columns: readonly Pick<Column, 'key' | 'type' | 'filterable'>[]
}

/** What the data server needs from config: datasets, their tables and vector sources. */
export interface Catalog {
  readonly datasets: readonly DatasetDef[]
  readonly tables: readonly TableDef[]
  readonly sources: readonly VectorSourceDef[]
}

const IDENT = /^[a-z][a-z0-9_]*$/

function fail(where: string, message: string): never {
  throw new Error(`config: ${where}: ${message}`)
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function str(v: unknown, where: string): string {
  if (typeof v !== 'string' || v === '') fail(where, 'expected a non-empty string')
  return v
}

function num(v: unknown, where: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(where, 'expected a number')
  return v
}

function optNum(v: unknown, where: string): number | undefined {
  return v === undefined || v === null ? undefined : num(v, where)
}

function list(v: unknown, where: string): unknown[] {
  if (v === undefined || v === null) return []
  if (!Array.isArray(v)) fail(where, 'expected a list')
  return v
}

function parseDataset(raw: unknown, i: number): DatasetDef {
  const where = `datasets[${i}]`
  if (!isRecord(raw)) fail(where, 'expected a mapping')
  const id = str(raw.id, `${where}.id`)
  if (!IDENT.test(id)) fail(`${where}.id`, `'${id}' must match ${IDENT}`)
  const geometry = str(raw.geometry, `${where}.geometry`)
  if (geometry !== 'point' && geometry !== 'line' && geometry !== 'polygon') {
    fail(`${where}.geometry`, `'${geometry}' is not point, line or polygon`)
  }
  const fields = list(raw.fields, `${where}.fields`).map((f, j): FieldDef => {
    const fw = `${where}.fields[${j}]`
    if (!isRecord(f)) fail(fw, 'expected a mapping')
    const name = str(f.name, `${fw}.name`)
    if (!IDENT.test(name)) fail(`${fw}.name`, `'${name}' must match ${IDENT}`)
    const type = str(f.type, `${fw}.type`)
    if (type !== 'number' && type !== 'string' && type !== 'date')
      fail(`${fw}.type`, `'${type}' is not number, string or date`)
    return { name, type }
  })
  const key = raw.key === undefined ? undefined : str(raw.key, `${where}.key`)
  const title = raw.title === undefined ? undefined : str(raw.title, `${where}.title`)
  return { id, title, geometry, key, fields }
}

function parseSource(raw: unknown, i: number): VectorSourceDef | null {
  const where = `sources[${i}]`
  if (!isRecord(raw)) fail(where, 'expected a mapping')
  if (raw.type !== 'mvt') return null
  const g = raw.generalize
  let generalize: GeneralizeDef | undefined
  if (isRecord(g)) {
    generalize = {
      aggregateMaxZoom: optNum(g.aggregateMaxZoom, `${where}.generalize.aggregateMaxZoom`),
      thinMaxZoom: optNum(g.thinMaxZoom, `${where}.generalize.thinMaxZoom`),
      minSizePx: optNum(g.minSizePx, `${where}.generalize.minSizePx`),
      thinFeatures: optNum(g.thinFeatures, `${where}.generalize.thinFeatures`),
    }
  }
  return {
    id: str(raw.id, `${where}.id`),
    path: str(raw.path, `${where}.path`),
    demoPath: raw.demoPath === undefined ? undefined : str(raw.demoPath, `${where}.demoPath`),
    dataset: str(raw.dataset, `${where}.dataset`),
    minzoom: num(raw.minzoom ?? 0, `${where}.minzoom`),
    maxzoom: num(raw.maxzoom ?? 22, `${where}.maxzoom`),
    generalize,
  }
}

function parseTable(raw: unknown, i: number): TableDef | null {
  const where = `tables[${i}]`
  if (!isRecord(raw)) fail(where, 'expected a mapping')
  if (raw.dataset === undefined) return null
  const columns = list(raw.columns, `${where}.columns`).map((c, j): TableDef['columns'][number] => {
    const cw = `${where}.columns[${j}]`
    if (!isRecord(c)) fail(cw, 'expected a mapping')
    const type = str(c.type ?? 'string', `${cw}.type`)
    if (type !== 'number' && type !== 'string') fail(`${cw}.type`, `'${type}' is not number or string`)
    return { key: str(c.key, `${cw}.key`), type, filterable: c.filterable === true }
  })
  return { id: str(raw.id, `${where}.id`), dataset: str(raw.dataset, `${where}.dataset`), columns }
}

/**
 * Builds a catalog from parsed YAML documents that no schema has checked (a CONFIG_DIR of the
 * import CLI and benchmark server): layers gives datasets + sources, tables gives tables.
 */
/** A dataset of the catalog by id (undefined when it has none). */
export function catalogDataset(catalog: Catalog, id: string): DatasetDef | undefined {
  return catalog.datasets.find((d) => d.id === id)
}

/** A dataset of the catalog by id; an unknown id is a programming error (throws). */
export function mustDataset(catalog: Catalog, id: string): DatasetDef {
  const d = catalogDataset(catalog, id)
  if (!d) throw new Error(`unknown dataset ${id}`)
  return d
}

export function catalogFrom(layers: unknown, tables: unknown): Catalog {
  const l = isRecord(layers) ? layers : {}
  const t = isRecord(tables) ? tables : {}
  const datasets = list(l.datasets, 'datasets').map(parseDataset)
  const ids = new Set(datasets.map((d) => d.id))
  const sources = list(l.sources, 'sources')
    .map(parseSource)
    .filter((s): s is VectorSourceDef => s !== null)
  for (const s of sources) if (!ids.has(s.dataset)) fail(`source ${s.id}`, `unknown dataset '${s.dataset}'`)
  const tableDefs = list(t.tables, 'tables')
    .map(parseTable)
    .filter((x): x is TableDef => x !== null)
  return { datasets, tables: tableDefs, sources }
}

/** The catalog compiled from config/*.yaml (validated by the config compiler). */
export function defaultCatalog(): Catalog {
  return {
    datasets: layersConfig.datasets,
    tables: tablesConfig.tables,
    sources: layersConfig.sources.filter((s): s is MvtSource => s.type === 'mvt'),
  }
}

/** Fields the records API may filter on: the table columns marked filterable that the dataset has. */
export function filterableFields(catalog: Catalog, datasetId: string): Map<string, FieldDef> {
  const dataset = catalog.datasets.find((d) => d.id === datasetId)
  const out = new Map<string, FieldDef>()
  if (!dataset) return out
  for (const table of catalog.tables) {
    if (table.dataset !== datasetId) continue
    for (const col of table.columns) {
      const field = dataset.fields.find((f) => f.name === col.key)
      if (col.filterable && field) out.set(field.name, field)
    }
  }
  return out
}
