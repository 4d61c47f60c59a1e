import { appConfig, tablesConfig } from '../../shared/config'

export type ColumnType = 'number' | 'string'

/** One column of an attribute table, from config/tables.yaml. */
export interface TableColumn {
  /** Field of the dataset's records (or `bbox` for the zoom-to action). */
  key: string
  /** Unique id within the table; defaults to the key (two columns may show one field). */
  id: string
  label: string
  type: ColumnType
  filterable: boolean
  formatter?: string
  unitField?: string
}

/** One attribute table, from config/tables.yaml. */
export interface TableDefinition {
  id: string
  name: string
  layerId: string
  dataset: string
  tabularDataUrl: string
  columns: readonly TableColumn[]
}

/** Paging settings from config/app.yaml `tables`. */
export interface TablePaging {
  itemsPerPage: number
  startPage: number
  maxLimit: number
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The configured tables in the shape the table feature uses (works for `as const` data and generated types). */
export function tableDefinitions(): TableDefinition[] {
  return tablesConfig.tables.map((table) => ({
    id: table.id,
    name: table.name,
    layerId: table.layer,
    dataset: table.dataset,
    tabularDataUrl: table.tabularDataUrl,
    columns: table.columns.map((column): TableColumn => {
      const id = 'id' in column ? optionalString(column.id) : undefined
      return {
        key: column.key,
        id: id ?? column.key,
        label: column.label,
        type: column.type === 'number' ? 'number' : 'string',
        filterable: column.filterable === true,
        formatter: 'formatter' in column ? optionalString(column.formatter) : undefined,
        unitField: 'unitField' in column ? optionalString(column.unitField) : undefined,
      }
    }),
  }))
}

export function tablePaging(): TablePaging {
  const t = appConfig.tables
  return { itemsPerPage: t.itemsPerPage, startPage: t.startPage, maxLimit: t.maxLimit }
}

/** The table shown for a layer of the sidebar, if that layer has one. */
export function tableIdForLayer(layerId: string): string | undefined {
  return tablesConfig.tables.find((table) => table.layer === layerId)?.id
}
