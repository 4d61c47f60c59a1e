import type { TableDefinition } from '../../src/generated/types'
import type { CatalogueIndex } from './catalogueIndex'

const T = 'tables'
/** The column key of the zoom-to-feature action (not a dataset field). */
export const BBOX_KEY = 'bbox'

function checkColumns(ix: CatalogueIndex, table: TableDefinition, i: number): void {
  const ds = table.dataset === undefined ? undefined : ix.datasets.get(table.dataset)
  const fields = ds ? new Map(ds.fields.map((f) => [f.name, f.type])) : undefined
  const ids = new Set<string>()
  table.columns.forEach((col, j) => {
    const at = ['tables', i, 'columns', j]
    const id = col.id ?? col.key
    if (ids.has(id)) ix.ctx.report(T, [...at, col.id === undefined ? 'key' : 'id'], `duplicate column '${id}' in table '${table.id}' (give one an 'id')`)
    ids.add(id)
    if (col.key === BBOX_KEY) {
      if (col.formatter !== 'zoomTo') ix.ctx.report(T, [...at, 'key'], `the '${BBOX_KEY}' column is the zoom-to action; its formatter must be zoomTo`)
    } else if (col.formatter === 'zoomTo') {
      ix.ctx.report(T, [...at, 'formatter'], `the zoomTo formatter is only for the '${BBOX_KEY}' column`)
    }
    if (col.formatter === 'valueUnit' && col.unitField === undefined) ix.ctx.report(T, at, `the valueUnit formatter needs 'unitField'`)
    if (!fields || !ds) return
    if (col.unitField !== undefined && !fields.has(col.unitField)) {
      ix.ctx.report(T, [...at, 'unitField'], `'${col.unitField}' is not a field of dataset '${ds.id}'`)
    }
    if (col.key === BBOX_KEY) return
    const type = fields.get(col.key)
    if (type === undefined) {
      ix.ctx.report(T, [...at, 'key'], `column '${col.key}' is not a field of dataset '${ds.id}'`)
    } else if ((type === 'number') !== (col.type === 'number')) {
      ix.ctx.report(T, [...at, 'type'], `column type ${col.type} does not match field '${col.key}' of type ${type}`)
    }
  })
}

/** Attribute tables: their layer and dataset, URL and columns. */
export function checkTables(ix: CatalogueIndex): void {
  ix.tables.tables.forEach((table, i) => {
    const at = ['tables', i]
    if (ix.ctx.ref(T, [...at, 'layer'], table.layer, ix.layerDefs, 'layer')) {
      const layer = ix.layerDefs.get(table.layer)
      if (layer && layer.table !== table.id) {
        const has = layer.table === undefined ? 'has no table' : `names table '${layer.table}'`
        ix.ctx.report(T, [...at, 'layer'], `layer '${table.layer}' ${has}; its 'table' must point back to '${table.id}'`)
      }
    }
    if (table.source !== undefined) {
      // A table over another server's features: its columns are that server's fields (not checked offline).
      if (table.dataset !== undefined) ix.ctx.report(T, [...at, 'source'], `give 'dataset' or 'source', not both`)
      if (!ix.ctx.ref(T, [...at, 'source'], table.source, ix.sources, 'source')) return
      const kind = ix.sources.get(table.source)?.type
      if (kind !== 'arcgis-featureserver' && kind !== 'ogc-features') {
        ix.ctx.report(T, [...at, 'source'], `source '${table.source}' is ${kind}; a table needs an arcgis-featureserver or ogc-features source`)
        return
      }
      const records = `sources/${table.source}/records`
      if (table.tabularDataUrl !== records) ix.ctx.report(T, [...at, 'tabularDataUrl'], `must be '${records}' (the records of source '${table.source}')`)
      table.columns.forEach((col, j) => {
        if (col.key === BBOX_KEY) ix.ctx.report(T, [...at, 'columns', j, 'key'], `a table over another server has no '${BBOX_KEY}' column`)
      })
      return
    }
    if (table.dataset === undefined) {
      ix.ctx.report(T, at, `a table needs 'dataset' (one of ours) or 'source' (another server's features)`)
      return
    }
    if (!ix.ctx.ref(T, [...at, 'dataset'], table.dataset, ix.datasets, 'dataset')) return
    const url = `data/${table.dataset}/records`
    if (table.tabularDataUrl !== url) ix.ctx.report(T, [...at, 'tabularDataUrl'], `must be '${url}' (the records of dataset '${table.dataset}')`)
    checkColumns(ix, table, i)
  })
}
