import { Button, Callout, NonIdealState, Spinner, Tag } from '@blueprintjs/core'
import { useState } from 'react'
import { operationsConfig } from '../../../shared/config'
import { formatDate, formatPlain, formatValue } from '../../../shared/format'
import { useMapHighlight } from '../../map'
import {
  downloadText,
  nextSort,
  SortableTable,
  useShowDatasetLayers,
  type SortableColumn,
  type SortState,
} from '../shared'
import { fetchPspsCsv, type PspsColumn, type PspsRow } from './pspsApi'
import { useCircuitGeometry, usePspsEvent } from './usePspsEvent'

const sortParam = (s: SortState | null) => (s ? `${s.descending ? '-' : ''}${s.field}` : null)

function toast(type: string, message: string) {
  window.dispatchEvent(new CustomEvent('emberline:toast', { detail: { type, message } }))
}

/** /PSPS panel: the next event's window, its circuits (sortable, totals row, CSV) and the highlight. */
export function PspsPanel() {
  const settings = operationsConfig.psps
  const [sort, setSort] = useState<SortState | null>(null)
  const [selected, setSelected] = useState<number | null>(null)
  const [exporting, setExporting] = useState(false)
  const event = usePspsEvent(sortParam(sort))
  useShowDatasetLayers(settings?.dataset)
  useMapHighlight(useCircuitGeometry(selected))

  if (!settings) {
    return (
      <section className="el-ops-panel el-psps-panel">
        <NonIdealState icon="offline" title="PSPS event roll-up is not configured" />
      </section>
    )
  }
  const data = event.data
  if (!data) {
    return (
      <section className="el-ops-panel el-psps-panel" aria-busy={event.status === 'loading'}>
        {event.status === 'error' ? (
          <NonIdealState icon="error" title="Could not load the PSPS event" description={event.message} />
        ) : (
          <Spinner size={32} aria-label="Loading the PSPS event" />
        )}
      </section>
    )
  }

  const columns: (SortableColumn & PspsColumn)[] = data.columns.map((c) => ({
    ...c,
    numeric: c.total === 'sum' || c.formatter !== null,
  }))
  const footer = columns.map((c, i) => {
    const total = data.totals[c.field]
    if (total !== undefined) return c.formatter ? formatValue(c.formatter, total) : formatPlain(total)
    return i === 0 ? 'Total' : ''
  })
  const cell = (row: PspsRow, c: SortableColumn) => {
    const column = c as SortableColumn & PspsColumn
    const text = formatValue(column.formatter, row.values[c.field], row.values)
    if (c.field === settings.gust && row.gustExceedsThreshold) {
      return (
        <Tag minimal intent="danger" title="Forecast gust above the circuit threshold">
          {text}
        </Tag>
      )
    }
    return text
  }
  const exportCsv = async () => {
    setExporting(true)
    try {
      downloadText('psps-event.csv', await fetchPspsCsv(sortParam(sort)))
    } catch (error) {
      toast('danger', `Could not export the PSPS event: ${(error as Error).message}`)
    } finally {
      setExporting(false)
    }
  }

  return (
    <section
      className="el-ops-panel el-psps-panel"
      aria-label="Next PSPS event"
      aria-busy={event.status === 'loading'}
    >
      <div className="el-ops-header">
        <h2>Next PSPS event</h2>
        <span
          className="el-psps-window"
          data-start={data.window.start ?? ''}
          data-end={data.window.end ?? ''}
        >
          {data.window.start
            ? `${formatDate(data.window.start)} – ${formatDate(data.window.end)}`
            : 'No event window'}
        </span>
        <Tag minimal round className="el-psps-count">
          {data.count} circuits
        </Tag>
        <span className="el-ops-spacer" />
        <Button
          size="small"
          variant="minimal"
          icon="download"
          text="Export CSV"
          loading={exporting}
          className="el-psps-export"
          onClick={() => void exportCsv()}
        />
      </div>
      {event.status === 'error' ? <Callout intent="danger">{event.message}</Callout> : null}
      {data.rows.length === 0 ? (
        <NonIdealState icon="tick-circle" title="No circuits are recommended for de-energization" />
      ) : (
        <SortableTable
          label="Circuits recommended for de-energization"
          className="el-psps-table"
          columns={columns}
          rows={data.rows}
          rowKey={(r) => String(r.id)}
          cell={cell}
          sort={sort}
          onSort={(field) => setSort((s) => nextSort(s, field))}
          footer={footer}
          selectedKey={selected === null ? null : String(selected)}
          onSelect={(r) => setSelected((s) => (s === r.id ? null : r.id))}
        />
      )}
    </section>
  )
}
