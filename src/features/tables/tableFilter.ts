import type { ColumnType } from './tableDefinitions'

/** Operators of numeric filters (spec §5: sent as the filter's `type`). */
export const NUMBER_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'] as const
export type NumberOperator = (typeof NUMBER_OPERATORS)[number]
export type FilterOperator = NumberOperator | 'contains'

/** The symbol shown for each numeric operator in chips and the add-filter form. */
export const OPERATOR_SYMBOLS: Record<FilterOperator, string> = {
  eq: '=',
  neq: '≠',
  gt: '>',
  gte: '≥',
  lt: '<',
  lte: '≤',
  contains: 'contains',
}

/** A filter on one column of one table (spec §3 Filter). */
export interface TableFilter {
  filterId: string
  layerId: string
  tableId: string
  columnType: ColumnType
  field: string
  value: string | number
  operator: FilterOperator
}

/** What the data API receives for one filter: field and value, plus the operator only for numbers. */
export interface EncodedFilter {
  field: string
  value: string | number
  type?: NumberOperator
}

export function isNumberOperator(value: unknown): value is NumberOperator {
  return typeof value === 'string' && (NUMBER_OPERATORS as readonly string[]).includes(value)
}

export function encodeFilter(filter: TableFilter): EncodedFilter {
  if (filter.columnType === 'number' && isNumberOperator(filter.operator)) {
    return { field: filter.field, value: Number(filter.value), type: filter.operator }
  }
  return { field: filter.field, value: String(filter.value) }
}
