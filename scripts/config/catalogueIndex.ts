import type {
  AppConfig,
  Category,
  Dataset,
  Grid,
  LayerDefinition,
  LayersConfig,
  Legend,
  MapLayer,
  Scale,
  Source,
  TableDefinition,
  TablesConfig,
  ThemeConfig,
} from '../../src/generated/types'
import { colorValue } from '../../src/shared/config/themeColors'
import type { CheckContext } from './checkContext'
import type { PathSegment } from './problem'

/** The schema-valid config of all four files, indexed by id for the reference checks. */
export interface CatalogueIndex {
  ctx: CheckContext
  app: AppConfig
  layers: LayersConfig
  tables: TablesConfig
  theme: ThemeConfig
  scales: Map<string, Scale>
  legends: Map<string, Legend>
  datasets: Map<string, Dataset>
  grids: Map<string, Grid>
  sources: Map<string, Source>
  mapLayers: Map<string, MapLayer>
  categories: Map<string, Category>
  layerDefs: Map<string, LayerDefinition>
  tableDefs: Map<string, TableDefinition>
  icons: Set<string>
  /** Reports a colour reference that is neither hex nor a theme name. */
  color(file: string, segments: readonly PathSegment[], ref: string): void
  /** Field names of the dataset a source draws (undefined for grids). */
  sourceFields(sourceId: string): Map<string, string> | undefined
}

export function buildIndex(ctx: CheckContext, app: AppConfig, layers: LayersConfig, tables: TablesConfig, theme: ThemeConfig): CatalogueIndex {
  const L = 'layers'
  const datasets = ctx.indexById(L, layers.datasets, ['datasets'], 'dataset')
  const sources = ctx.indexById(L, layers.sources, ['sources'], 'source')
  const fieldsOf = (id: string) => {
    const ds = datasets.get(id)
    return ds ? new Map(ds.fields.map((f) => [f.name, f.type])) : undefined
  }
  return {
    ctx,
    app,
    layers,
    tables,
    theme,
    scales: ctx.indexById(L, layers.scales, ['scales'], 'scale'),
    legends: ctx.indexById(L, layers.legends, ['legends'], 'legend'),
    datasets,
    grids: ctx.indexById(L, layers.grids, ['grids'], 'grid'),
    sources,
    mapLayers: ctx.indexById(L, layers.mapLayers, ['mapLayers'], 'map layer'),
    categories: ctx.indexById(L, layers.categories, ['categories'], 'category'),
    layerDefs: ctx.indexById(L, layers.layers, ['layers'], 'layer'),
    tableDefs: ctx.indexById('tables', tables.tables, ['tables'], 'table'),
    icons: new Set([layers.icons.unknown.icon, ...layers.icons.types.map((t) => t.icon)]),
    color(file, segments, ref) {
      if (colorValue(theme, ref) === undefined) ctx.report(file, segments, `unknown colour '${ref}': not '#rrggbb[aa]' and not a name in config/theme.yaml`)
    },
    sourceFields(sourceId) {
      const source = sources.get(sourceId)
      return source && 'dataset' in source ? fieldsOf(source.dataset) : undefined
    },
  }
}
