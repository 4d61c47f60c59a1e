import {
  appConfig,
  type AppConfig,
  layersConfig,
  type LayersConfig,
  type Legend,
  tablesConfig,
  type TablesConfig,
} from '../../shared/config'

/** A popup field or table column with what it means. */
export interface DocField {
  readonly key: string
  readonly label: string
  readonly meaning: string | null
  readonly format: string | null
  readonly type?: string
  readonly filterable?: boolean
}

export interface DocLayer {
  readonly id: string
  readonly name: string
  readonly infoText: string
  readonly dataSource: string
  readonly cadence: readonly string[]
  readonly inDefaultList: boolean
  readonly subLayers: readonly string[]
  readonly legends: readonly Legend[]
  readonly popupFields: readonly DocField[]
  readonly table: { readonly name: string; readonly columns: readonly DocField[] } | null
}

export interface DocCategory {
  readonly id: string
  readonly name: string
  readonly layers: readonly DocLayer[]
}

export interface Documentation {
  readonly intro: string
  readonly categories: readonly DocCategory[]
  readonly riskLabels: readonly { readonly label: string; readonly range: string }[]
  readonly reading: AppConfig['documentation']['reading']
  readonly cadence: AppConfig['cadence']
}

export interface DocumentationSources {
  readonly app: AppConfig
  readonly layers: LayersConfig
  readonly tables: TablesConfig
}

const FORMATS: Readonly<Record<string, string>> = {
  sigfig3: '3 significant digits',
  decimal1: 'one decimal',
  currency: 'US dollars',
  date: 'local date and time with zone',
  hoursAgo: 'hours since',
  titleCase: 'title case',
  valueUnit: 'value with its unit',
  zoomTo: 'zoom-to button',
}

function field(
  meanings: Readonly<Record<string, string>>,
  item: { key: string; label: string; formatter?: string; type?: string; filterable?: boolean },
): DocField {
  return {
    key: item.key,
    label: item.label,
    meaning: meanings[item.key] ?? null,
    format: item.formatter ? (FORMATS[item.formatter] ?? item.formatter) : null,
    ...(item.type === undefined ? {} : { type: item.type }),
    ...(item.filterable === undefined ? {} : { filterable: item.filterable }),
  }
}

function riskRanges(rules: AppConfig['riskLabels']): Documentation['riskLabels'] {
  const ordered = [...rules].sort((a, b) => b.min - a.min)
  return ordered.map((rule, i) => {
    const above = ordered[i - 1]
    if (!above) return { label: rule.label, range: `${rule.min} and above` }
    if (i === ordered.length - 1) return { label: rule.label, range: `below ${above.min}` }
    return { label: rule.label, range: `${rule.min} to below ${above.min}` }
  })
}

function documentLayer(layer: LayersConfig['layers'][number], sources: DocumentationSources): DocLayer {
  const { app, layers, tables } = sources
  const meanings = app.documentation.fieldMeanings
  const mapLayers = layer.layers
    .map((id) => layers.mapLayers.find((m) => m.id === id))
    .filter((m): m is LayersConfig['mapLayers'][number] => m !== undefined)
  const legendIds = [...new Set(mapLayers.map((m) => m.legend).filter((id): id is string => Boolean(id)))]
  const popupFields = mapLayers.flatMap((m) => m.popup?.fields ?? [])
  const uniquePopupFields = popupFields.filter(
    (f, i) => popupFields.findIndex((g) => g.key === f.key && g.label === f.label) === i,
  )
  const table =
    tables.tables.find((t) => t.id === layer.table) ?? tables.tables.find((t) => t.layer === layer.id)
  return {
    id: layer.id,
    name: layer.name,
    infoText: layer.infoText,
    dataSource: layer.dataSource,
    cadence: app.cadence.filter((c) => c.layers?.includes(layer.id)).map((c) => `${c.subject}: ${c.text}`),
    inDefaultList: layer.inDefaultList,
    subLayers: (layer.subLayers ?? []).filter((s) => s.inControl !== false).map((s) => s.name),
    legends: legendIds
      .map((id) => layers.legends.find((l) => l.id === id))
      .filter((l): l is Legend => l !== undefined),
    popupFields: uniquePopupFields.map((f) => field(meanings, f)),
    table: table ? { name: table.name, columns: table.columns.map((c) => field(meanings, c)) } : null,
  }
}

/**
 * The documentation page's content, built only from config so it cannot drift: every category
 * and every defined layer (including those outside the default list), with legends, data
 * source, cadence, popup fields and table columns with their meaning; risk labels; how to read
 * PSPS and EPSS. A layer whose category is unknown is listed under its category id.
 */
export function buildDocumentation(
  sources: DocumentationSources = { app: appConfig, layers: layersConfig, tables: tablesConfig },
): Documentation {
  const { app, layers } = sources
  const categoryIds = [...layers.categories.map((c) => c.id)]
  for (const layer of layers.layers)
    if (!categoryIds.includes(layer.category)) categoryIds.push(layer.category)
  const categories = categoryIds.map((id) => ({
    id,
    name: layers.categories.find((c) => c.id === id)?.name ?? id,
    layers: layers.layers.filter((l) => l.category === id).map((l) => documentLayer(l, sources)),
  }))
  return {
    intro: app.documentation.intro,
    categories,
    riskLabels: riskRanges(app.riskLabels),
    reading: app.documentation.reading,
    cadence: app.cadence,
  }
}
