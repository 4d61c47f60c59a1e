import { layersConfig, tablesConfig } from '../../shared/config'
import type { Catalog, DatasetDef, FieldDef } from '../store/catalog'
import { filterableFields } from '../store/catalog'
import { temporalField } from '../store/ogcFeatures'

/** One OGC API collection: a dataset that has an attribute table. */
export interface OgcCollection {
  readonly id: string
  readonly title: string
  readonly description: string
  readonly dataset: DatasetDef
  /** The table's filterable fields: the properties CQL2 filters may use (queryables). */
  readonly filterable: ReadonlyMap<string, FieldDef>
  /** The property `datetime` filters on (the first date field), if any. */
  readonly temporal?: string
}

/**
 * The collections of the OGC API: one per dataset with a table (catalog order of tables), titled
 * by the table's name and described by its layer's info text and data source from config.
 */
export function ogcCollections(catalog: Catalog): OgcCollection[] {
  const out: OgcCollection[] = []
  const seen = new Set<string>()
  for (const table of catalog.tables) {
    const dataset = catalog.datasets.find((d) => d.id === table.dataset)
    if (!dataset || seen.has(dataset.id)) continue
    seen.add(dataset.id)
    const config = tablesConfig.tables.find((t) => t.id === table.id)
    const layer = config ? layersConfig.layers.find((l) => l.id === config.layer) : undefined
    const description = layer
      ? `${layer.infoText.trim()} Source: ${layer.dataSource.trim()}`
      : (dataset.title ?? dataset.id)
    out.push({
      id: dataset.id,
      title: config?.name ?? dataset.title ?? dataset.id,
      description,
      dataset,
      filterable: filterableFields(catalog, dataset.id),
      temporal: temporalField(dataset),
    })
  }
  return out
}
