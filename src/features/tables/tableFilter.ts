import {
  NUMERIC_OPERATORS,
  OPERATOR_SYMBOLS,
  isNumericOperator,
  type NumericOperator,
  type RecordsFilter,
} from '../../shared/filters'
import type { Column } from '../../shared/config'

/** Operators of numeric filters (spec §5: sent as the filter's `type`); the shared codec's list. */
export const NUMBER_OPERATORS = NUMERIC_OPERATORS
export type NumberOperator = NumericOperator
export const isNumberOperator = isNumericOperator
export type FilterOperator = NumberOperator | 'contains'

/** The symbol shown for each operator in chips and the add-filter form (the shared codec's). */
export { OPERATOR_SYMBOLS }

/** A filter on one column of one table (spec §3 Filter). */
export interface TableFilter {
  filterId: string
  layerId: string
  tableId: string
  columnType: Column['type']
  field: string
  value: string | number
  operator: FilterOperator
}

/** What the data API receives for one filter (src/shared/filters.ts): field and value, plus the operator only for numbers. */
export function toRecordsFilter(filter: TableFilter): RecordsFilter {
  if (filter.columnType === 'number' && isNumericOperator(filter.operator)) {
    return { field: filter.field, value: Number(filter.value), type: filter.operator }
  }
  return { field: filter.field, value: String(filter.value) }
}
