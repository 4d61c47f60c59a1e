import { layersConfig, tablesConfig } from '../../generated/config'
import type {
  Dataset,
  Grid,
  LayerDefinition,
  Legend,
  MapLayer,
  Scale,
  Source,
  TableDefinition,
} from '../../generated/types'

/** The id-keyed lists of the compiled catalogue (config/layers.yaml and config/tables.yaml) as maps. */
export interface Catalogue {
  readonly layers: ReadonlyMap<string, LayerDefinition>
  readonly mapLayers: ReadonlyMap<string, MapLayer>
  readonly sources: ReadonlyMap<string, Source>
  readonly datasets: ReadonlyMap<string, Dataset>
  readonly grids: ReadonlyMap<string, Grid>
  readonly legends: ReadonlyMap<string, Legend>
  readonly scales: ReadonlyMap<string, Scale>
  readonly tables: ReadonlyMap<string, TableDefinition>
}

const byId = <T extends { readonly id: string }>(list: readonly T[]): ReadonlyMap<string, T> =>
  new Map(list.map((item) => [item.id, item]))

/** Lookups over the compiled config; `get` answers undefined for ids that come from outside config. */
export const catalogue: Catalogue = {
  layers: byId(layersConfig.layers),
  mapLayers: byId(layersConfig.mapLayers),
  sources: byId(layersConfig.sources),
  datasets: byId(layersConfig.datasets),
  grids: byId(layersConfig.grids),
  legends: byId(layersConfig.legends),
  scales: byId(layersConfig.scales),
  tables: byId(tablesConfig.tables),
}

/**
 * The entry an id from config names. The config compiler checks every cross-reference, so an
 * unknown id here is a programming error and throws.
 */
function known<T>(map: ReadonlyMap<string, T>, id: string, kind: string, file: string): T {
  const found = map.get(id)
  if (found === undefined) throw new Error(`Unknown ${kind} '${id}' in config/${file}`)
  return found
}

export const layerById = (id: string): LayerDefinition => known(catalogue.layers, id, 'layer', 'layers.yaml')
export const mapLayerById = (id: string): MapLayer => known(catalogue.mapLayers, id, 'map layer', 'layers.yaml')
export const sourceById = (id: string): Source => known(catalogue.sources, id, 'source', 'layers.yaml')
export const datasetById = (id: string): Dataset => known(catalogue.datasets, id, 'dataset', 'layers.yaml')
export const gridById = (id: string): Grid => known(catalogue.grids, id, 'grid', 'layers.yaml')
export const legendById = (id: string): Legend => known(catalogue.legends, id, 'legend', 'layers.yaml')
export const scaleById = (id: string): Scale => known(catalogue.scales, id, 'scale', 'layers.yaml')
export const tableById = (id: string): TableDefinition => known(catalogue.tables, id, 'table', 'tables.yaml')

/** A source of the kind a paint needs (a raster paint draws a png source, particles a wind source…). */
export function sourceOfType<K extends Source['type']>(id: string, type: K): Extract<Source, { type: K }> {
  const source = sourceById(id)
  if (!isOfType(source, type)) throw new Error(`Source '${id}' in config/layers.yaml is ${source.type}, not ${type}`)
  return source
}

const isOfType = <K extends Source['type']>(source: Source, type: K): source is Extract<Source, { type: K }> =>
  source.type === type
