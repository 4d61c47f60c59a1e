import { flexRender, getCoreRowModel, useReactTable, type ColumnDef } from '@tanstack/react-table'
import { useMemo } from 'react'
import { formatValue } from '../../shared/format'
import type { TableRecord } from './fetchRecords'
import type { Column, TableDefinition } from '../../shared/config'
import { columnId } from './columnId'
import { useGridKeyboard } from './useGridKeyboard'
import { ZoomToButton } from './ZoomToButton'

/** Starting width (px): enough for the header label and the formatter's usual text. */
function initialWidth(column: Column): number {
  if (column.formatter === 'zoomTo') return 64
  const base = column.formatter === 'date' ? 210 : column.type === 'number' ? 110 : 160
  return Math.max(base, Math.round(column.label.length * 7.5 + 32))
}

function columnDef(column: Column, now: (() => number) | undefined): ColumnDef<TableRecord> {
  const zoomTo = column.formatter === 'zoomTo'
  return {
    id: columnId(column),
    header: column.label,
    accessorFn: (record) => record[column.key],
    size: initialWidth(column),
    enableSorting: false,
    cell: (info) =>
      zoomTo ? (
        <ZoomToButton value={info.getValue()} />
      ) : (
        formatValue(column, info.getValue(), info.row.original, { now: now?.() })
      ),
  }
}

/** One page of a table's rows: sticky header, resizable columns, arrow-key navigation. */
export function TableGrid(props: {
  definition: TableDefinition
  rows: TableRecord[]
  /** Clock for 'N hours ago' (the demo data's fixed "now" in demo mode); default Date.now. */
  now?: () => number
}) {
  const { definition, rows, now } = props
  const columns = useMemo(() => definition.columns.map((c) => columnDef(c, now)), [definition, now])
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table returns fresh functions; this component is not memoised
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (record, index) =>
      typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : String(index),
    columnResizeMode: 'onChange',
    enableColumnResizing: true,
    defaultColumn: { minSize: 48, maxSize: 800 },
  })
  const keyboard = useGridKeyboard(rows.length, columns.length)
  const isNumeric = (id: string) => definition.columns.find((c) => columnId(c) === id)?.type === 'number'
  return (
    <div className="emberline-table-scroll">
      <table
        className="bp6-html-table bp6-compact bp6-html-table-striped emberline-table-grid"
        role="grid"
        aria-label={definition.name}
        aria-rowcount={rows.length + 1}
        style={{ width: table.getTotalSize() }}
        onKeyDown={keyboard.onKeyDown}
      >
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id} role="row">
              {group.headers.map((header, col) => (
                <th
                  key={header.id}
                  role="columnheader"
                  data-cell={`-1:${col}`}
                  data-column={header.column.id}
                  tabIndex={keyboard.tabIndexOf(-1, col)}
                  onFocus={() => keyboard.setActive({ row: -1, col })}
                  style={{ width: header.getSize() }}
                  className={isNumeric(header.column.id) ? 'emberline-numeric' : undefined}
                >
                  {flexRender(header.column.columnDef.header, header.getContext())}
                  <div
                    role="separator"
                    aria-orientation="vertical"
                    aria-label={`Resize ${String(header.column.columnDef.header)}`}
                    className={`emberline-resizer${header.column.getIsResizing() ? ' is-resizing' : ''}`}
                    onMouseDown={header.getResizeHandler()}
                    onTouchStart={header.getResizeHandler()}
                    onDoubleClick={() => header.column.resetSize()}
                  />
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row, r) => (
            <tr key={row.id} role="row" aria-rowindex={r + 2}>
              {row.getVisibleCells().map((cell, col) => (
                <td
                  key={cell.id}
                  role="gridcell"
                  data-cell={`${r}:${col}`}
                  data-column={cell.column.id}
                  tabIndex={keyboard.tabIndexOf(r, col)}
                  onFocus={() => keyboard.setActive({ row: r, col })}
                  style={{ width: cell.column.getSize() }}
                  className={isNumeric(cell.column.id) ? 'emberline-numeric' : undefined}
                >
                  {flexRender(cell.column.columnDef.cell, cell.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
