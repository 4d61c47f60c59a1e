import type { Column, LayerDefinition, TableDefinition } from '../../generated/types'
import { lookups, type CatalogueLookups } from './catalogueLookups'

/** The column's id: `id` when two columns show the same key, else its `key` (unique within a table). */
export function columnId(column: Column): string {
  return column.id ?? column.key
}

/** The attribute table of a layer, or undefined for the layers without one. */
export function tableForLayer(layer: LayerDefinition, l: CatalogueLookups = lookups): TableDefinition | undefined {
  return layer.table === undefined ? undefined : l.tables.get(layer.table)
}
