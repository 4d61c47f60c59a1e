import { Callout, Spinner } from '@blueprintjs/core'
import { formatDate } from '../../shared/format'
import { fetchAlerts } from './briefingApi'
import { useBriefingData } from './useBriefingData'

/** Asset names printed per alert before "+N more". */
const LISTED_ASSETS = 6

/** The alerts raised now: rule, hazard, assets with their distances, nearest distance, time. */
export function AlertsSection() {
  const alerts = useBriefingData(fetchAlerts)
  return (
    <section className="el-briefing-section" aria-labelledby="briefing-alerts" data-testid="briefing-alerts">
      <h2 id="briefing-alerts">
        Open alerts{alerts.state === 'ready' ? ` (${alerts.value.alerts.length})` : ''}
      </h2>
      {alerts.state === 'loading' ? <Spinner size={20} aria-label="Loading the alerts" /> : null}
      {alerts.state === 'failed' ? (
        <Callout intent="warning">Alerts unavailable: {alerts.message}</Callout>
      ) : null}
      {alerts.state === 'ready' && alerts.value.alerts.length === 0 ? (
        <p>No hazard is within the configured distance of an asset.</p>
      ) : null}
      {alerts.state === 'ready' && alerts.value.alerts.length > 0 ? (
        <>
          <p className="el-briefing-note">Evaluated {formatDate(alerts.value.evaluatedAt)}.</p>
          <table className="el-briefing-table" data-testid="briefing-alerts-table">
            <thead>
              <tr>
                <th>#</th>
                <th>Severity</th>
                <th>Rule</th>
                <th>Hazard</th>
                <th>Assets (distance, mi)</th>
                <th className="el-num">Nearest (mi)</th>
                <th>Time</th>
              </tr>
            </thead>
            <tbody>
              {alerts.value.alerts.map((a, i) => {
                const severity = alerts.value.severities.find((s) => s.id === a.severity)
                const listed = a.assets
                  .slice(0, LISTED_ASSETS)
                  .map((x) => `${x.label} (${x.distanceMiles.toFixed(2)})`)
                const more =
                  a.assets.length > LISTED_ASSETS ? ` +${a.assets.length - LISTED_ASSETS} more` : ''
                return (
                  <tr key={a.id} data-alert={a.id}>
                    <td>{i + 1}</td>
                    <td>
                      <span className="el-briefing-severity" style={{ borderColor: severity?.color }}>
                        {severity?.label ?? a.severity}
                      </span>
                    </td>
                    <td>{a.ruleTitle}</td>
                    <td>{a.hazard.label}</td>
                    <td>
                      {listed.join(', ')}
                      {more}
                    </td>
                    <td className="el-num">{a.nearestMiles.toFixed(2)}</td>
                    <td>{formatDate(a.time)}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </>
      ) : null}
    </section>
  )
}
