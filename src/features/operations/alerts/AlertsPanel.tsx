import { Button, Callout, HTMLSelect, HTMLTable, NonIdealState, Spinner, Tag } from '@blueprintjs/core'
import { useEffect, useMemo, useRef, useState } from 'react'
import { formatDate } from '../../../shared/format'
import { useLayerState } from '../../layers'
import { layersOfDataset } from '../shared'
import '../shared/operations.css'
import { AlertRow } from './AlertRow'
import './alerts.css'
import { fetchAlertGeometry, type AlertFilters, type AlertInfo } from './alertsApi'
import { useAlertHighlight, type AlertHighlight } from './useAlertHighlight'
import { useAlerts } from './useAlerts'

const ALL = ''

/** The /Alerts panel: the asset-exposure alerts, filterable by rule and severity. */
export function AlertsPanel() {
  const [filters, setFilters] = useState<AlertFilters>({ rule: null, severity: null })
  const { list, loading, error, saving, reload, acknowledge } = useAlerts(filters)
  const [shown, setShown] = useState<{ id: string; highlight: AlertHighlight } | null>(null)
  const { dispatch } = useLayerState()
  useAlertHighlight(shown?.highlight ?? null)

  const severities = useMemo(() => new Map((list?.severities ?? []).map((s) => [s.id, s])), [list])
  const total = useMemo(() => (list?.rules ?? []).reduce((n, r) => n + r.count, 0), [list])

  async function show(alert: AlertInfo) {
    try {
      const geometry = await fetchAlertGeometry(alert.id)
      for (const dataset of [alert.hazard.dataset, ...new Set(alert.assets.map((a) => a.dataset))])
        for (const layerId of layersOfDataset(dataset))
          dispatch({ type: 'setVisible', layerId, visible: true })
      const color = severities.get(alert.severity)?.color ?? '#ffffff'
      setShown({ id: alert.id, highlight: { geometry, bbox: alert.bbox, color } })
    } catch (e) {
      const message = `Could not show the alert: ${e instanceof Error ? e.message : String(e)}`
      window.dispatchEvent(new CustomEvent('emberline:toast', { detail: { type: 'error', message } }))
    }
  }

  // A delivered alert's link (`?alert=<id>`) opens the view with that alert shown on the map.
  const [linked] = useState(() => new URLSearchParams(window.location.search).get('alert'))
  const linkHandled = useRef(false)
  useEffect(() => {
    if (!linked || linkHandled.current || !list) return
    linkHandled.current = true
    const alert = list.alerts.find((a) => a.id === linked)
    // Shown once the list is on screen (show() fetches the geometry, then sets state).
    if (alert) void Promise.resolve(alert).then(show)
    else
      window.dispatchEvent(
        new CustomEvent('emberline:toast', {
          detail: { type: 'info', message: 'That alert is no longer raised.' },
        }),
      )
  })

  if (!list) {
    if (error)
      return (
        <section className="el-ops-panel" aria-label="Alerts" data-status="error">
          <Callout intent="danger" title="Could not load the alerts">
            {error}
            <Button variant="minimal" icon="refresh" onClick={reload}>
              Retry
            </Button>
          </Callout>
        </section>
      )
    return (
      <section className="el-ops-panel" aria-label="Alerts" data-status="loading">
        <Spinner size={32} aria-label="Loading the alerts" />
      </section>
    )
  }

  return (
    <section
      className="el-ops-panel el-alerts-panel"
      aria-label="Alerts"
      data-status={loading ? 'loading' : 'ready'}
    >
      <div className="el-ops-header">
        <h2>Alerts</h2>
        <Tag minimal round>
          {total}
        </Tag>
        <HTMLSelect
          aria-label="Rule"
          value={filters.rule ?? ALL}
          onChange={(e) => setFilters((f) => ({ ...f, rule: e.currentTarget.value || null }))}
          options={[
            { value: ALL, label: 'All rules' },
            ...list.rules.map((r) => ({ value: r.id, label: `${r.title} (${r.count})` })),
          ]}
        />
        <HTMLSelect
          aria-label="Severity"
          value={filters.severity ?? ALL}
          onChange={(e) => setFilters((f) => ({ ...f, severity: e.currentTarget.value || null }))}
          options={[
            { value: ALL, label: 'All severities' },
            ...list.severities.map((s) => ({ value: s.id, label: s.label })),
          ]}
        />
        <span className="el-ops-spacer" />
        <span className="bp6-text-muted">Evaluated {formatDate(list.evaluatedAt)}</span>
        <Button variant="minimal" icon="refresh" aria-label="Refresh" loading={loading} onClick={reload} />
      </div>
      {error ? <Callout intent="danger">{error}</Callout> : null}
      {list.alerts.length === 0 ? (
        <NonIdealState
          icon="tick-circle"
          title="No alerts"
          description={
            filters.rule || filters.severity
              ? 'No alert matches these filters.'
              : 'No hazard is within the configured distance of an asset.'
          }
        />
      ) : (
        <HTMLTable compact striped className="el-ops-table el-alerts-table">
          <thead>
            <tr>
              <th>Severity</th>
              <th>Rule</th>
              <th>Hazard</th>
              <th>Assets</th>
              <th>Time</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.alerts.map((a) => (
              <AlertRow
                key={a.id}
                alert={a}
                severity={severities.get(a.severity)}
                shown={shown?.id === a.id}
                saving={saving.has(a.id)}
                onShow={(x) => void show(x)}
                onAcknowledge={(x, ack) => void acknowledge(x.id, ack)}
              />
            ))}
          </tbody>
        </HTMLTable>
      )}
    </section>
  )
}
