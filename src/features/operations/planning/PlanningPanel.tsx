import { Button, Callout, NonIdealState, Slider, Spinner, Switch, Tag } from '@blueprintjs/core'
import { useEffect, useState } from 'react'
import { appConfig, operationsConfig } from '../../../shared/config'
import { formatDate, formatOneDecimal, formatPlain } from '../../../shared/format'
import { useLayerState } from '../../layers'
import { useMapHighlight } from '../../map'
import { SortableTable, useFeatureGeometry, useShowDatasetLayers, type SortableColumn } from '../shared'
import { hourFromSearch, searchWithHour, type PlanningCircuit } from './planningApi'
import { ThresholdInput } from './ThresholdInput'
import { usePlanning } from './usePlanning'

const COLUMNS: SortableColumn[] = [
  { field: 'key', label: 'Circuit', sortable: false },
  { field: 'gust', label: 'Forecast Gust (mph)', numeric: true, sortable: false },
  { field: 'threshold', label: 'Threshold (mph)', numeric: true, sortable: false },
  { field: 'exceedance', label: 'Over By (mph)', numeric: true, sortable: false },
  { field: 'customers', label: 'Customers', numeric: true, sortable: false },
]

const { locale } = appConfig.formatting
/** Axis label: the local hour ('4 PM'); the handle tooltip adds the day ('Mar 5, 4 PM'). */
const hourLabel = (iso: string | undefined, hour: number, withDay = false) =>
  iso
    ? new Date(iso).toLocaleString(locale, {
        hour: 'numeric',
        ...(withDay ? { month: 'short', day: 'numeric' } : {}),
      })
    : `+${hour}h`

/** /PlanningMode panel: forecast-hour slider, circuits over threshold at that hour, what-if thresholds. */
export function PlanningPanel() {
  const settings = operationsConfig.planning
  const hours = settings?.hours ?? 1
  const [hour, setHour] = useState<number | null>(() => hourFromSearch(window.location.search, hours))
  const [overrides, setOverrides] = useState<Record<string, number>>({})
  const [below, setBelow] = useState(false)
  const planning = usePlanning(hour, overrides, below, settings !== undefined)
  const { dispatch } = useLayerState()
  const [selected, setSelected] = useState<number | null>(null)
  useShowDatasetLayers(settings?.dataset)
  useMapHighlight(
    useFeatureGeometry(selected === null ? null : `/api/planning/circuits/${selected}/geometry`),
  )
  const data = planning.data
  const shownHour = hour ?? data?.hour ?? null

  // The hourly rasters follow the slider; the address bar carries the hour for share links.
  useEffect(() => {
    if (shownHour === null) return
    dispatch({ type: 'setForecastHour', hour: shownHour })
    const { pathname, search, hash } = window.location
    const next = searchWithHour(search, shownHour)
    if (next !== search) window.history.replaceState(window.history.state, '', `${pathname}${next}${hash}`)
  }, [shownHour, dispatch])
  useEffect(() => () => dispatch({ type: 'setForecastHour', hour: null }), [dispatch])

  if (!settings) {
    return (
      <section className="el-ops-panel el-planning-panel">
        <NonIdealState icon="offline" title="Planning Mode is not configured" />
      </section>
    )
  }
  if (!data) {
    return (
      <section className="el-ops-panel el-planning-panel" aria-busy="true">
        {planning.status === 'error' ? (
          <NonIdealState icon="error" title="Could not load Planning Mode" description={planning.message} />
        ) : (
          <Spinner size={32} aria-label="Loading Planning Mode" />
        )}
      </section>
    )
  }

  const setOverride = (key: string, mph: number | null, stored: number | null) =>
    setOverrides((o) => {
      const next = { ...o }
      if (mph === null || mph === stored) delete next[key]
      else next[key] = mph
      return next
    })
  const cell = (row: PlanningCircuit, c: SortableColumn) => {
    switch (c.field) {
      case 'key':
        return row.key
      case 'gust':
        return formatOneDecimal(row.gust)
      case 'exceedance':
        return formatOneDecimal(row.exceedance)
      case 'customers':
        return formatPlain(row.customers)
      case 'threshold':
        return (
          <ThresholdInput
            key={`${row.key}:${row.threshold}`}
            circuitKey={row.key}
            value={row.threshold}
            onCommit={(mph) => setOverride(row.key, mph, row.storedThreshold)}
          />
        )
      default:
        return ''
    }
  }
  const busy = planning.status === 'loading'
  const value = shownHour ?? 0
  const labelStep = Math.max(1, Math.ceil(data.hours / 6))

  return (
    <section className="el-ops-panel el-planning-panel" aria-label="Planning Mode" aria-busy={busy}>
      <div className="el-ops-header">
        <h2>Planning Mode</h2>
        <span className="el-planning-valid" data-hour={value} data-valid-time={data.validTime ?? ''}>
          Hour {value}: {data.validTime ? formatDate(data.validTime) : ''}
        </span>
        <Tag minimal round intent={data.count > 0 ? 'danger' : 'success'} className="el-planning-count">
          {data.count} of {data.considered} circuits over threshold
        </Tag>
        {busy ? <Spinner size={16} /> : null}
      </div>
      <div className="el-planning-slider">
        <Slider
          min={0}
          max={data.hours - 1}
          stepSize={1}
          labelStepSize={labelStep}
          value={value}
          onChange={setHour}
          labelRenderer={(h, opts) => hourLabel(data.validTimes[h], h, opts?.isHandleTooltip === true)}
          handleHtmlProps={{ 'aria-label': 'Forecast hour' }}
        />
      </div>
      {planning.status === 'error' ? <Callout intent="danger">{planning.message}</Callout> : null}
      {!data.gridAvailable ? (
        <Callout intent="warning">The hourly gust forecast is not loaded.</Callout>
      ) : null}
      {data.overrides.length > 0 ? (
        <div className="el-planning-overrides">
          <span>What-if thresholds:</span>
          {data.overrides.map((o) => (
            <Tag
              key={o.key}
              minimal
              intent="primary"
              data-key={o.key}
              onRemove={() => setOverride(o.key, null, o.storedThreshold)}
            >
              {o.key}: {o.threshold} mph (stored {formatPlain(o.storedThreshold)})
            </Tag>
          ))}
          <Button
            size="small"
            variant="minimal"
            icon="reset"
            text="Reset all"
            onClick={() => setOverrides({})}
          />
        </div>
      ) : null}
      <Switch
        className="el-planning-below"
        checked={below}
        label="Also list circuits under their threshold (to try lower what-if thresholds)"
        onChange={(e) => setBelow(e.currentTarget.checked)}
      />
      {data.circuits.length === 0 ? (
        <NonIdealState
          icon="tick-circle"
          title="No circuit's forecast gust exceeds its threshold at this hour"
        />
      ) : (
        <SortableTable
          label={
            below ? 'Circuits by forecast gust against threshold' : 'Circuits over their wind-gust threshold'
          }
          className="el-planning-table"
          columns={COLUMNS}
          rows={data.circuits}
          rowKey={(r) => r.key}
          rowClassName={(r) => (r.exceeds ? 'el-planning-over' : 'el-planning-under')}
          cell={cell}
          sort={null}
          selectedKey={data.circuits.find((c) => c.id === selected)?.key ?? null}
          onSelect={(r) => setSelected((id) => (id === r.id ? null : r.id))}
        />
      )}
    </section>
  )
}
