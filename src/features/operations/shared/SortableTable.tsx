import { HTMLTable, Icon } from '@blueprintjs/core'
import type { ReactNode } from 'react'
import './operations.css'

export interface SortState {
  field: string
  descending: boolean
}

export interface SortableColumn {
  field: string
  label: string
  /** Right-aligned (numbers). */
  numeric?: boolean
  /** Header click sorts by this column (default true). */
  sortable?: boolean
}

export interface SortableTableProps<Row> {
  columns: readonly SortableColumn[]
  rows: readonly Row[]
  rowKey: (row: Row) => string
  cell: (row: Row, column: SortableColumn) => ReactNode
  sort: SortState | null
  /** Called with the column clicked; the caller decides the new order. */
  onSort?: (field: string) => void
  /** Cells of a footer row (e.g. totals), one per column. */
  footer?: readonly ReactNode[]
  selectedKey?: string | null
  onSelect?: (row: Row) => void
  /** Extra class of a row (e.g. to set apart rows under a threshold). */
  rowClassName?: (row: Row) => string | undefined
  label: string
  className?: string
}

/** Next sort after clicking `field`: ascending first, then descending, then ascending again. */
export function nextSort(current: SortState | null, field: string): SortState {
  return current?.field === field ? { field, descending: !current.descending } : { field, descending: false }
}

/** A compact Blueprint table with clickable headers, row selection and an optional footer row. */
export function SortableTable<Row>({
  columns,
  rows,
  rowKey,
  cell,
  sort,
  onSort,
  footer,
  selectedKey,
  onSelect,
  rowClassName,
  label,
  className,
}: SortableTableProps<Row>) {
  return (
    <HTMLTable
      compact
      striped
      interactive={onSelect !== undefined}
      className={`el-ops-table ${className ?? ''}`}
      aria-label={label}
    >
      <thead>
        <tr>
          {columns.map((c) => {
            const active = sort?.field === c.field
            const ariaSort = active ? (sort.descending ? 'descending' : 'ascending') : 'none'
            return (
              <th
                key={c.field}
                aria-sort={ariaSort}
                data-field={c.field}
                className={c.numeric ? 'el-ops-num' : undefined}
              >
                {onSort && c.sortable !== false ? (
                  <button type="button" className="el-ops-sort" onClick={() => onSort(c.field)}>
                    {c.label}
                    <Icon
                      icon={
                        active ? (sort.descending ? 'chevron-down' : 'chevron-up') : 'double-caret-vertical'
                      }
                      size={12}
                    />
                  </button>
                ) : (
                  c.label
                )}
              </th>
            )
          })}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => {
          const key = rowKey(row)
          const selected = selectedKey === key
          return (
            <tr
              key={key}
              data-key={key}
              aria-selected={onSelect ? selected : undefined}
              className={
                [selected ? 'el-ops-selected' : '', rowClassName?.(row) ?? ''].join(' ').trim() || undefined
              }
              tabIndex={onSelect ? 0 : undefined}
              onClick={onSelect ? () => onSelect(row) : undefined}
              onKeyDown={
                onSelect
                  ? (e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault()
                        onSelect(row)
                      }
                    }
                  : undefined
              }
            >
              {columns.map((c) => (
                <td key={c.field} data-field={c.field} className={c.numeric ? 'el-ops-num' : undefined}>
                  {cell(row, c)}
                </td>
              ))}
            </tr>
          )
        })}
      </tbody>
      {footer ? (
        <tfoot>
          <tr className="el-ops-total">
            {columns.map((c, i) => (
              <td key={c.field} data-field={c.field} className={c.numeric ? 'el-ops-num' : undefined}>
                {footer[i]}
              </td>
            ))}
          </tr>
        </tfoot>
      ) : null}
    </HTMLTable>
  )
}
