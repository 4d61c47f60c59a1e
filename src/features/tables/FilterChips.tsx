import { Tag } from '@blueprintjs/core'
import type { TableDefinition } from '../../shared/config'
import { OPERATOR_SYMBOLS, type TableFilter } from './tableFilter'

/** "Acres ≥ 100", "Incident Name contains pine" */
export function filterLabel(filter: TableFilter, definition: TableDefinition): string {
  const label = definition.columns.find((c) => c.key === filter.field)?.label ?? filter.field
  return `${label} ${OPERATOR_SYMBOLS[filter.operator]} ${String(filter.value)}`
}

/** The current table's filters as removable chips. */
export function FilterChips(props: {
  filters: readonly TableFilter[]
  definition: TableDefinition
  onRemove: (filterId: string) => void
}) {
  return (
    <div className="emberline-filter-chips" role="group" aria-label="Filters">
      {props.filters.map((filter) => (
        <Tag
          key={filter.filterId}
          className="emberline-filter-chip"
          data-filter-id={filter.filterId}
          intent="primary"
          minimal
          round
          onRemove={() => props.onRemove(filter.filterId)}
        >
          {filterLabel(filter, props.definition)}
        </Tag>
      ))}
    </div>
  )
}
