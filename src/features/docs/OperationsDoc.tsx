import { H2, H3, HTMLTable } from '@blueprintjs/core'
import type { OperationsDoc as Doc } from './operationsDoc'
import { screenTitle } from '../../shared/config'

/** The "Operations views" section of /Documentation, from config/operations.yaml. */
export function OperationsDoc({ doc }: { doc: Doc }) {
  const weightSum = doc.mitigation?.factors.reduce((s, f) => s + f.weight, 0) ?? 0
  return (
    <section id="operations">
      <H2>Operations views</H2>
      <H3>{screenTitle('/Alerts')}</H3>
      <p>
        An alert is raised for each hazard near one or more assets, by the rules below; severities, most
        severe first: {doc.severities.join(', ')}. Acknowledging an alert is recorded for you and kept.
      </p>
      <HTMLTable compact>
        <thead>
          <tr>
            <th scope="col">Rule</th>
            <th scope="col">Hazard</th>
            <th scope="col">Asset</th>
            <th scope="col">Distance</th>
            <th scope="col">Conditions</th>
            <th scope="col">Severity</th>
          </tr>
        </thead>
        <tbody>
          {doc.rules.map((r) => (
            <tr key={r.id} data-rule-id={r.id}>
              <td>{r.title}</td>
              <td>{r.hazard}</td>
              <td>{r.asset}</td>
              <td>{r.distance}</td>
              <td>{r.conditions.join('; ') || '—'}</td>
              <td>{r.severity}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {doc.psps ? (
        <>
          <H3>{screenTitle('/PSPS')}</H3>
          <p>
            The next PSPS event from {doc.psps.dataset}: its window and one row per circuit recommended for
            de-energization ({doc.psps.columns.join(', ')}). Totals across the event:{' '}
            {doc.psps.totals.join(', ')}.
          </p>
          <p>
            <strong>Events</strong> (the Events tab): a shutoff run from watch to restoration. Create one from
            the forecast with a name; on its page choose a circuit and record <em>De-energize</em>,{' '}
            <em>Patrolled</em> and <em>Restore</em> (the time is now unless you change it), damage found and
            notes; move the event through its phases. The map colours each circuit by its state (red off,
            amber patrolled, green restored), the timeline lists every step and the notifications sent in each
            phase, and the replay slider shows which circuits were off at any moment.{' '}
            <em>Post-event report</em> opens the printable report (map, totals, one row per circuit per
            de-energization, timeline) with its CSV and Excel downloads.
          </p>
        </>
      ) : null}
      {doc.planning ? (
        <>
          <H3>{screenTitle('/PlanningMode')}</H3>
          <p>
            A slider over the {doc.planning.hours} forecast hours. For the chosen hour, the forecast gust is
            read from {doc.planning.grid} along each circuit of {doc.planning.dataset} (the highest value on
            the line) and the circuits above their wind-gust threshold are listed. What-if thresholds re-rank
            the list without changing stored data.
          </p>
        </>
      ) : null}
      {doc.mitigation ? (
        <>
          <H3>{screenTitle('/MitigationAnalysis')}</H3>
          <p>
            Circuits of {doc.mitigation.dataset} ranked by score = {doc.mitigation.risk} (over its maximum) ×
            the weighted mean of the consequence factors (each over its maximum). Default weights:
          </p>
          <ul>
            {doc.mitigation.factors.map((f) => (
              <li key={f.label}>
                {f.label}: {f.weight} ({weightSum > 0 ? Math.round((f.weight / weightSum) * 100) : 0}%)
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  )
}
