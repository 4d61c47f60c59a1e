import { assign, fromPromise, setup } from 'xstate'
import { fetchRecords, type RecordsPage, type TableRecord } from './fetchRecords'
import { pageCount, pageOffset, recordsUrl } from './recordsRequest'
import { appConfig, tablesConfig, type TableDefinition } from '../../shared/config'
import type { TableFilter } from './tableFilter'
import { showTableError } from './tablesToaster'
import { watchDatasetVersions, type DatasetVersionsEvent } from './watchDatasetVersions'

/** What the panel knows about one table (spec §3 Attribute table). */
export interface TableState {
  id: string
  isOpen: boolean
  rows: TableRecord[]
  /** Matching records reported by the API for the last request; null before the first answer. */
  total: number | null
  page: number
  loading: boolean
  /** The last answer had no records, so the previous rows are still shown (spec §5). */
  lastAnswerEmpty: boolean
  /** Id of the latest request; answers to older ones are ignored. */
  requestId: number
}

export interface AttributeTablesContext {
  definitions: Record<string, TableDefinition>
  itemsPerPage: number
  startPage: number
  tables: Record<string, TableState>
  /** Open tables in the order they were opened: the tab order. */
  openOrder: string[]
  currentTableId: string | null
  filters: TableFilter[]
  sequence: number
  /** Each dataset's version at the last answer of the version watch while shown ({} before it). */
  datasetVersions: Readonly<Record<string, number>>
}

export type NewFilter = Omit<TableFilter, 'filterId' | 'tableId' | 'layerId'>

export type AttributeTablesEvent =
  | { type: 'table.open'; tableId: string }
  | { type: 'table.close'; tableId: string }
  | { type: 'table.select'; tableId: string }
  | { type: 'filter.add'; filter: NewFilter }
  | { type: 'filter.remove'; filterId: string }
  | { type: 'page.set'; page: number }
  | { type: 'reset' }
  | { type: 'records.loaded'; tableId: string; requestId: number; page: RecordsPage }
  | { type: 'records.failed'; tableId: string; requestId: number; message: string }
  | DatasetVersionsEvent

export interface AttributeTablesInput {
  tables?: readonly TableDefinition[]
  itemsPerPage?: number
  startPage?: number
}

/** Where a load sends its answer: the machine's own actor. */
export interface LoadRecordsParent {
  send(event: Extract<AttributeTablesEvent, { type: 'records.loaded' | 'records.failed' }>): void
}

export interface LoadRecordsInput {
  parent: LoadRecordsParent
  tableId: string
  requestId: number
  url: string
}

function emptyTable(id: string, page: number): TableState {
  return {
    id,
    isOpen: false,
    rows: [],
    total: null,
    page,
    loading: false,
    lastAnswerEmpty: false,
    requestId: 0,
  }
}

function initialTables(
  definitions: Record<string, TableDefinition>,
  page: number,
): Record<string, TableState> {
  return Object.fromEntries(Object.keys(definitions).map((id) => [id, emptyTable(id, page)]))
}

/** The records URL of a table's current page with its filters. */
function pageUrl(context: AttributeTablesContext, definition: TableDefinition, table: TableState): string {
  const offset = pageOffset(table.page, context.itemsPerPage)
  return recordsUrl(definition, context.filters, context.itemsPerPage, offset)
}

function patchTable(context: AttributeTablesContext, id: string, patch: Partial<TableState>) {
  const table = context.tables[id]
  return table ? { ...context.tables, [id]: { ...table, ...patch } } : context.tables
}

export const attributeTablesMachine = setup({
  types: {
    context: {} as AttributeTablesContext,
    events: {} as AttributeTablesEvent,
    input: {} as AttributeTablesInput | undefined,
  },
  actors: {
    watchDatasetVersions,
    loadRecords: fromPromise<void, LoadRecordsInput>(async ({ input, signal }) => {
      const { parent, tableId, requestId } = input
      try {
        const page = await fetchRecords(input.url, signal)
        parent.send({ type: 'records.loaded', tableId, requestId, page })
      } catch (error) {
        if (signal.aborted) return
        parent.send({ type: 'records.failed', tableId, requestId, message: (error as Error).message })
      }
    }),
  },
  actions: {
    openTable: assign(({ context }, params: { tableId: string }) => ({
      tables: patchTable(context, params.tableId, { isOpen: true }),
      openOrder: context.openOrder.includes(params.tableId)
        ? context.openOrder
        : [...context.openOrder, params.tableId],
      currentTableId: params.tableId,
    })),
    closeTable: assign(({ context }, params: { tableId: string }) => {
      const openOrder = context.openOrder.filter((id) => id !== params.tableId)
      const wasCurrent = context.currentTableId === params.tableId
      return {
        tables: patchTable(context, params.tableId, { isOpen: false, loading: false }),
        openOrder,
        currentTableId: wasCurrent ? (openOrder[0] ?? null) : context.currentTableId,
      }
    }),
    selectTable: assign((_, params: { tableId: string }) => ({ currentTableId: params.tableId })),
    addFilter: assign(({ context }, params: { filter: NewFilter }) => {
      const table = context.currentTableId ? context.definitions[context.currentTableId] : undefined
      if (!table) return {}
      const sequence = context.sequence + 1
      const filter: TableFilter = {
        ...params.filter,
        filterId: `${table.id}-filter-${sequence}`,
        tableId: table.id,
        layerId: table.layer,
      }
      return { sequence, filters: [...context.filters, filter] }
    }),
    removeFilter: assign(({ context }, params: { filterId: string }) => ({
      filters: context.filters.filter((filter) => filter.filterId !== params.filterId),
    })),
    setCurrentPage: assign(({ context }, params: { page: number }) =>
      context.currentTableId
        ? { tables: patchTable(context, context.currentTableId, { page: params.page }) }
        : {},
    ),
    fetchTable: assign(({ context, spawn, self }, params: { tableId: string | null }) => {
      const definition = params.tableId ? context.definitions[params.tableId] : undefined
      const table = params.tableId ? context.tables[params.tableId] : undefined
      if (!definition || !table) return {}
      const requestId = context.sequence + 1
      const url = pageUrl(context, definition, table)
      spawn('loadRecords', { input: { parent: self, tableId: definition.id, requestId, url } })
      return { sequence: requestId, tables: patchTable(context, definition.id, { loading: true, requestId }) }
    }),
    storeRecords: assign(({ context }, params: { tableId: string; page: RecordsPage }) => {
      const { records, total } = params.page
      const patch: Partial<TableState> =
        records.length > 0
          ? { loading: false, rows: records, total, lastAnswerEmpty: false }
          : { loading: false, total, lastAnswerEmpty: true }
      return { tables: patchTable(context, params.tableId, patch) }
    }),
    stopLoading: assign(({ context }, params: { tableId: string }) => ({
      tables: patchTable(context, params.tableId, { loading: false }),
    })),
    notifyLoadFailed: (_, params: { tableName: string; message: string }) => {
      showTableError(`Could not load ${params.tableName}: ${params.message}`)
    },
    forgetVersions: assign({ datasetVersions: {} }),
    /**
     * A feed run or an import changed a dataset: every open table over it refetches its current
     * page with its filters (the first answer after the panel shows only sets the baseline).
     */
    refetchChangedTables: assign(({ context, spawn, self }, params: DatasetVersionsEvent) => {
      const known = context.datasetVersions
      const changed = context.openOrder.filter((id) => {
        const dataset = context.definitions[id]?.dataset
        const before = dataset === undefined ? undefined : known[dataset]
        const now = dataset === undefined ? undefined : params.versions[dataset]
        return before !== undefined && now !== undefined && now !== before
      })
      let { sequence, tables } = context
      for (const tableId of changed) {
        const definition = context.definitions[tableId]
        const table = tables[tableId]
        if (!definition || !table) continue
        sequence += 1
        const url = pageUrl(context, definition, table)
        spawn('loadRecords', { input: { parent: self, tableId, requestId: sequence, url } })
        tables = { ...tables, [tableId]: { ...table, loading: true, requestId: sequence } }
      }
      return { sequence, tables, datasetVersions: params.versions }
    }),
    resetAll: assign(({ context }) => ({
      tables: initialTables(context.definitions, context.startPage),
      openOrder: [],
      currentTableId: null,
      filters: [],
    })),
  },
  guards: {
    isKnownTable: ({ context }, params: { tableId: string }) => params.tableId in context.definitions,
    isOpenTable: ({ context }, params: { tableId: string }) => context.openOrder.includes(params.tableId),
    isLastOpenTable: ({ context }, params: { tableId: string }) =>
      context.openOrder.length === 1 && context.openOrder[0] === params.tableId,
    hasCurrentTable: ({ context }) => context.currentTableId !== null,
    isLatestRequest: ({ context }, params: { tableId: string; requestId: number }) =>
      context.tables[params.tableId]?.requestId === params.requestId,
    isValidPage: ({ context }, params: { page: number }) => {
      const table = context.currentTableId ? context.tables[context.currentTableId] : undefined
      if (!table || !Number.isInteger(params.page) || params.page < context.startPage) return false
      return table.total === null || params.page <= pageCount(table.total, context.itemsPerPage)
    },
  },
}).createMachine({
  id: 'attributeTables',
  context: ({ input }) => {
    const list = input?.tables ?? tablesConfig.tables
    const paging = appConfig.tables
    const definitions = Object.fromEntries(list.map((table) => [table.id, table]))
    const startPage = input?.startPage ?? paging.startPage
    return {
      definitions,
      itemsPerPage: input?.itemsPerPage ?? paging.itemsPerPage,
      startPage,
      tables: initialTables(definitions, startPage),
      openOrder: [],
      currentTableId: null,
      filters: [],
      sequence: 0,
      datasetVersions: {},
    }
  },
  initial: 'hidden',
  on: {
    'records.loaded': {
      guard: { type: 'isLatestRequest', params: ({ event }) => event },
      actions: { type: 'storeRecords', params: ({ event }) => event },
    },
    'records.failed': {
      guard: { type: 'isLatestRequest', params: ({ event }) => event },
      actions: [
        { type: 'stopLoading', params: ({ event }) => event },
        {
          type: 'notifyLoadFailed',
          params: ({ context, event }) => ({
            tableName: context.definitions[event.tableId]?.name ?? event.tableId,
            message: event.message,
          }),
        },
      ],
    },
    reset: { target: '.hidden', actions: 'resetAll' },
  },
  states: {
    hidden: {
      on: {
        'table.open': {
          guard: { type: 'isKnownTable', params: ({ event }) => event },
          target: 'shown',
          actions: [
            { type: 'openTable', params: ({ event }) => event },
            { type: 'fetchTable', params: ({ event }) => event },
          ],
        },
      },
    },
    shown: {
      entry: 'forgetVersions',
      invoke: { src: 'watchDatasetVersions' },
      on: {
        'datasets.versions': {
          actions: { type: 'refetchChangedTables', params: ({ event }) => event },
        },
        'table.open': {
          guard: { type: 'isKnownTable', params: ({ event }) => event },
          actions: [
            { type: 'openTable', params: ({ event }) => event },
            { type: 'fetchTable', params: ({ event }) => event },
          ],
        },
        'table.close': [
          {
            guard: { type: 'isLastOpenTable', params: ({ event }) => event },
            target: 'hidden',
            actions: { type: 'closeTable', params: ({ event }) => event },
          },
          {
            guard: { type: 'isOpenTable', params: ({ event }) => event },
            actions: { type: 'closeTable', params: ({ event }) => event },
          },
        ],
        'table.select': {
          guard: { type: 'isOpenTable', params: ({ event }) => event },
          actions: { type: 'selectTable', params: ({ event }) => event },
        },
        'filter.add': {
          guard: 'hasCurrentTable',
          actions: [
            { type: 'addFilter', params: ({ event }) => event },
            { type: 'setCurrentPage', params: ({ context }) => ({ page: context.startPage }) },
            { type: 'fetchTable', params: ({ context }) => ({ tableId: context.currentTableId }) },
          ],
        },
        'filter.remove': {
          actions: [
            { type: 'removeFilter', params: ({ event }) => event },
            { type: 'setCurrentPage', params: ({ context }) => ({ page: context.startPage }) },
            { type: 'fetchTable', params: ({ context }) => ({ tableId: context.currentTableId }) },
          ],
        },
        'page.set': {
          guard: { type: 'isValidPage', params: ({ event }) => event },
          actions: [
            { type: 'setCurrentPage', params: ({ event }) => event },
            { type: 'fetchTable', params: ({ context }) => ({ tableId: context.currentTableId }) },
          ],
        },
      },
    },
  },
})
