import { Button, Callout, NonIdealState, Spinner } from '@blueprintjs/core'
import { useEffect, useMemo, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { appConfig } from '../../../../shared/config'
import { formatDate, formatPlain } from '../../../../shared/format'
import { MapImageSection, PrintPageStyle } from '../../../briefing'
import { useMapImage } from '../../../map'
import { authFetch } from '../../../session'
import { useFetched } from '../../shared/useFetched'
import { EventTimeline } from '../events/EventTimeline'
import type { CircuitState } from '../events/eventReplay'
import {
  fetchEvent,
  fetchReport,
  type PspsEventDetail,
  type PspsReport,
  type ReportCell,
} from '../events/eventsApi'
import { eventTimeline } from '../events/eventTimeline'
import { useCircuitLinesLoad, useEventCircuitMap } from '../events/useEventCircuitMap'

const TITLE = 'PSPS post-event report'

/** A report cell as printed: dates in the app's format, numbers grouped, empty for null. */
function cellText(kind: PspsReport['columns'][number]['kind'], value: ReportCell): string {
  if (value === null) return ''
  if (kind === 'date') return formatDate(value)
  if (kind === 'number') return formatPlain(value)
  return String(value)
}

async function download(url: string, fileName: string): Promise<void> {
  const response = await authFetch(url)
  if (!response.ok) throw new Error(`HTTP ${response.status}`)
  const href = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = href
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
}

/** /PSPS?event=<id>&view=report: the printable post-event report of one PSPS event. */
export function PspsReportSheet() {
  const id = Number(new URLSearchParams(useLocation().search).get('event'))
  const valid = Number.isInteger(id) && id > 0
  const event = useFetched(valid ? `event:${id}` : null, (signal) => fetchEvent(id, signal))
  const report = useFetched(valid ? `report:${id}` : null, (signal) => fetchReport(id, signal))
  if (!valid) {
    return (
      <article className="el-briefing el-psps-report" aria-label={TITLE}>
        <NonIdealState
          icon="document"
          title="No PSPS event chosen"
          description="Open a report from an event's page: Operations → PSPS → Events."
        />
      </article>
    )
  }
  const failed = event.status === 'error' ? event.message : report.status === 'error' ? report.message : null
  if (failed !== null && (!event.data || !report.data)) {
    return (
      <article className="el-briefing el-psps-report" aria-label={TITLE}>
        <NonIdealState icon="error" title="Could not load the report" description={failed} />
      </article>
    )
  }
  if (!event.data || !report.data) return <Spinner size={32} aria-label="Loading the report" />
  return <ReportBody event={event.data} report={report.data} />
}

function ReportBody({ event, report }: { event: PspsEventDetail; report: PspsReport }) {
  const picture = useMapImage()
  const navigate = useNavigate()
  const [printedAt, setPrintedAt] = useState(() => Date.now())
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    const stamp = () => setPrintedAt(Date.now())
    window.addEventListener('beforeprint', stamp)
    return () => window.removeEventListener('beforeprint', stamp)
  }, [])
  // The map shows every circuit switched off during the event.
  const deenergized = useMemo(
    () => event.circuits.filter((c) => c.periods.length > 0).map((c) => c.circuit),
    [event.circuits],
  )
  const { lines, settled } = useCircuitLinesLoad(deenergized)
  const states = useMemo(() => new Map(deenergized.map((c) => [c, 'off' as CircuitState])), [deenergized])
  const drawn = useEventCircuitMap(lines, states, { fit: true, canvas: true })
  // The picture waits for the circuits: not ready (nor printable) until they are drawn on the map,
  // unless their lines failed to load (then the map prints uncoloured).
  const image = drawn || (settled && lines === null) ? picture : { ...picture, status: 'waiting' as const }
  const organization = appConfig.identity.organizationName
  const when = formatDate(printedAt)
  const numeric = report.columns.filter((c) => c.kind === 'number' && c.field !== 'period')
  const base = `/api/psps/events/${event.id}/report`
  const save = (ext: 'csv' | 'xlsx') =>
    void download(`${base}.${ext}`, `psps-event-${event.id}.${ext}`).catch((e: Error) =>
      setError(`Could not download the ${ext.toUpperCase()}: ${e.message}`),
    )

  return (
    <article className="el-briefing el-psps-report" aria-label={TITLE} data-testid="psps-report">
      <PrintPageStyle organization={organization} printedAt={when} title={TITLE} />
      <style>{'@page { size: landscape; }'}</style>
      <header className="el-briefing-head">
        <div>
          <h1>
            {TITLE}: {event.name}
          </h1>
          <p>
            {organization} · phase {event.phase} · created {formatDate(event.createdAt)} · printed {when}
          </p>
        </div>
        <div className="el-briefing-screen-only el-psps-report-actions">
          <Button icon="arrow-left" text="Event" onClick={() => void navigate(`/PSPS?event=${event.id}`)} />
          <Button icon="download" text="CSV" onClick={() => save('csv')} />
          <Button icon="download" text="Excel" onClick={() => save('xlsx')} />
          <Button
            icon="print"
            intent="primary"
            text={image.status === 'waiting' ? 'Preparing map…' : 'Print / Save as PDF'}
            disabled={image.status === 'waiting'}
            data-testid="psps-report-print"
            onClick={() => window.print()}
          />
        </div>
      </header>
      {error !== null ? (
        <Callout intent="danger" role="alert" className="el-briefing-screen-only">
          {error}
        </Callout>
      ) : null}
      <MapImageSection
        image={image}
        title="De-energized circuits"
        alt={`Map of the ${deenergized.length} circuits de-energized in ${event.name}`}
      />
      <section className="el-briefing-section el-psps-report-totals" aria-labelledby="psps-report-totals">
        <h2 id="psps-report-totals">Totals</h2>
        <dl data-testid="psps-report-totals">
          <div>
            <dt>De-energizations</dt>
            <dd>{formatPlain(report.rows.length)}</dd>
          </div>
          <div>
            <dt>Circuits de-energized</dt>
            <dd>{formatPlain(new Set(report.rows.map((r) => r.circuit)).size)}</dd>
          </div>
          {numeric.map((c) => (
            <div key={c.field}>
              <dt>{c.title}</dt>
              <dd>{cellText('number', report.totals[c.field] ?? null)}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="el-briefing-section" aria-labelledby="psps-report-circuits">
        <h2 id="psps-report-circuits">Circuits ({report.rows.length} de-energizations)</h2>
        {report.rows.length === 0 ? (
          <p>No circuit was de-energized in this event.</p>
        ) : (
          <ReportTable report={report} />
        )}
      </section>
      <div className="el-briefing-section el-psps-report-timeline">
        <EventTimeline entries={eventTimeline(event)} />
      </div>
    </article>
  )
}

function ReportTable({ report }: { report: PspsReport }) {
  const first = report.columns[0]?.field
  return (
    <table className="el-briefing-table el-psps-report-table" data-testid="psps-report-table">
      <thead>
        <tr>
          {report.columns.map((c) => (
            <th key={c.field} scope="col" className={c.kind === 'number' ? 'el-num' : undefined}>
              {c.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {report.rows.map((r) => (
          <tr key={`${r.circuit}:${r.period}`} data-circuit={r.circuit} data-period={r.period}>
            {report.columns.map((c) => (
              <td key={c.field} className={c.kind === 'number' ? 'el-num' : undefined}>
                {cellText(c.kind, r.values[c.field] ?? null)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="el-briefing-total">
          {report.columns.map((c) => (
            <td key={c.field} className={c.kind === 'number' ? 'el-num' : undefined}>
              {c.field === first
                ? 'Total'
                : c.kind === 'number' && c.field !== 'period'
                  ? cellText('number', report.totals[c.field] ?? null)
                  : ''}
            </td>
          ))}
        </tr>
      </tfoot>
    </table>
  )
}
