import { appConfig, layersConfig, tablesConfig } from '../../generated/config'
import type {
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
} from '../../generated/types'

/** Every id-keyed list of the catalogue as a map. */
export interface CatalogueLookups {
  readonly layers: ReadonlyMap<string, LayerDefinition>
  readonly mapLayers: ReadonlyMap<string, MapLayer>
  readonly sources: ReadonlyMap<string, Source>
  readonly datasets: ReadonlyMap<string, Dataset>
  readonly grids: ReadonlyMap<string, Grid>
  readonly legends: ReadonlyMap<string, Legend>
  readonly scales: ReadonlyMap<string, Scale>
  readonly tables: ReadonlyMap<string, TableDefinition>
  readonly categories: ReadonlyMap<string, Category>
}

const byId = <T extends { readonly id: string }>(list: readonly T[]): ReadonlyMap<string, T> =>
  new Map(list.map((item) => [item.id, item]))

/** Builds the lookups over a catalogue (the generated one by default; tests pass their own). */
export function buildLookups(layers: LayersConfig = layersConfig, tables: TablesConfig = tablesConfig): CatalogueLookups {
  return {
    layers: byId(layers.layers),
    mapLayers: byId(layers.mapLayers),
    sources: byId(layers.sources),
    datasets: byId(layers.datasets),
    grids: byId(layers.grids),
    legends: byId(layers.legends),
    scales: byId(layers.scales),
    tables: byId(tables.tables),
    categories: byId(layers.categories),
  }
}

/** Lookups over the compiled config. */
export const lookups: CatalogueLookups = buildLookups()

export const getLayer = (id: string): LayerDefinition | undefined => lookups.layers.get(id)
export const getMapLayer = (id: string): MapLayer | undefined => lookups.mapLayers.get(id)
export const getSource = (id: string): Source | undefined => lookups.sources.get(id)
export const getDataset = (id: string): Dataset | undefined => lookups.datasets.get(id)
export const getGrid = (id: string): Grid | undefined => lookups.grids.get(id)
export const getLegend = (id: string): Legend | undefined => lookups.legends.get(id)
export const getScale = (id: string): Scale | undefined => lookups.scales.get(id)
export const getTable = (id: string): TableDefinition | undefined => lookups.tables.get(id)
export const getCategory = (id: string): Category | undefined => lookups.categories.get(id)

/** The layers of the default sidebar list, in config order. */
export function defaultListLayers(layers: LayersConfig = layersConfig): LayerDefinition[] {
  return layers.layers.filter((l) => l.inDefaultList)
}

/** The dataset a source's tiles are cut from (mvt and wind sources; undefined for png grids). */
export function sourceDataset(source: Source, l: CatalogueLookups = lookups): Dataset | undefined {
  return source.type === 'png' ? undefined : l.datasets.get(source.dataset)
}

/** The dataset behind a map layer's features, if it draws features. */
export function mapLayerDataset(mapLayer: MapLayer, l: CatalogueLookups = lookups): Dataset | undefined {
  const source = l.sources.get(mapLayer.source)
  return source ? sourceDataset(source, l) : undefined
}

/** Whether the app runs on demo data by default (the server's DEMO variable may override). */
export const demoByDefault: boolean = appConfig.demo.enabled
