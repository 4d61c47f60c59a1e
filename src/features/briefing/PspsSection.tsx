import { Callout, Spinner } from '@blueprintjs/core'
import { formatDate, formatPlain, formatValue } from '../../shared/format'
import type { PspsColumn } from '../../shared/operations/wireTypes'
import { fetchPsps } from './briefingApi'
import { useBriefingData } from './useBriefingData'

const cell = (c: PspsColumn, value: unknown) =>
  c.formatter ? formatValue(c.formatter, value) : formatPlain(value)

/** The next PSPS event: its window, one row per circuit with the configured columns, and totals. */
export function PspsSection() {
  const event = useBriefingData(fetchPsps)
  return (
    <section className="el-briefing-section" aria-labelledby="briefing-psps" data-testid="briefing-psps">
      <h2 id="briefing-psps">Next PSPS event</h2>
      {event.state === 'loading' ? <Spinner size={20} aria-label="Loading the PSPS event" /> : null}
      {event.state === 'failed' ? (
        <Callout intent="warning">PSPS roll-up unavailable: {event.message}</Callout>
      ) : null}
      {event.state === 'ready' && event.value === null ? <p>The PSPS roll-up is not configured.</p> : null}
      {event.state === 'ready' && event.value !== null ? (
        <>
          <p className="el-briefing-note">
            Window {formatDate(event.value.window.start) || '—'} to{' '}
            {formatDate(event.value.window.end) || '—'} · {event.value.count} circuits
          </p>
          <table className="el-briefing-table" data-testid="briefing-psps-table">
            <thead>
              <tr>
                {event.value.columns.map((c) => (
                  <th key={c.field} className={c.total || c.formatter ? 'el-num' : undefined}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {event.value.rows.map((row) => (
                <tr key={row.id}>
                  {event.value?.columns.map((c) => (
                    <td key={c.field} className={c.total || c.formatter ? 'el-num' : undefined}>
                      {cell(c, row.values[c.field])}
                    </td>
                  ))}
                </tr>
              ))}
              <tr className="el-briefing-total">
                {event.value.columns.map((c, i) => {
                  const total = event.value?.totals[c.field]
                  return (
                    <td key={c.field} className={c.total || c.formatter ? 'el-num' : undefined}>
                      {i === 0 ? 'Total' : total === undefined ? '' : cell(c, total)}
                    </td>
                  )
                })}
              </tr>
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  )
}
