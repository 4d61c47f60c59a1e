import { NonIdealState, Spinner } from '@blueprintjs/core'
import { useEffect, useMemo, type ReactNode } from 'react'
import { appConfig } from '../../shared/config'
import { hourLabel } from '../../shared/risk'
import { lazyPart, whenMapDrawn } from '../map'
import { DayCards } from './DayCards'
import { fetchPSPSRiskScore, useRiskScore } from './riskScoreStore'
import { useReferenceDay } from './useReferenceDay'
import './risk.css'

/** Longest wait for the map's first tiles before the chart loads anyway (map without layers, tiles failing). */
const CHART_WAIT_FOR_MAP_MS = 3000

// ApexCharts is large: its own chunk, fetched once there is a series to draw and the map under which
// this panel sits has drawn its first tiles, so the chart never delays the first map view. If the
// chunk fails, only the chart says so, with a Retry (LazyPart); the day cards and the map stay.
const ForecastChart = lazyPart('The forecast chart', () =>
  whenMapDrawn(CHART_WAIT_FOR_MAP_MS)
    .then(() => import('./chart/ForecastChart'))
    .then((m) => m.ForecastChart),
)

/**
 * The forecast chart panel: loads the series once when shown; chart above the day cards. An empty
 * series says so (`chart.noData`); a failed fetch shows nothing (spec §8: logged only).
 */
export function ForecastPanel() {
  const status = useRiskScore((s) => s.value)
  const timestamps = useRiskScore((s) => s.context.labels)
  const scores = useRiskScore((s) => s.context.scores)
  const today = useReferenceDay()
  const { dayLabelTimeZone, locale } = appConfig.formatting
  const axisLabels = useMemo(
    () => timestamps.map((t) => hourLabel(t, dayLabelTimeZone, locale)),
    [timestamps, dayLabelTimeZone, locale],
  )

  useEffect(() => fetchPSPSRiskScore(), [])

  let body: ReactNode
  if (status === 'idle' || status === 'loading')
    body = <Spinner size={32} aria-label="Loading the forecast" />
  // Spec §8: a failed fetch is only logged (by the machine); the data stays unavailable.
  else if (status === 'failed') body = null
  else if (scores.length === 0)
    body = (
      <NonIdealState
        icon="timeline-line-chart"
        title={appConfig.chart.title}
        description={appConfig.chart.noData ?? 'No data'}
      />
    )
  else
    body = (
      <>
        <ForecastChart
          labels={axisLabels}
          scores={scores}
          fallback={<Spinner size={32} aria-label="Loading the chart" />}
        />
        <DayCards timestamps={timestamps} scores={scores} todayKey={today} />
      </>
    )

  return (
    <section className="emberline-forecast-panel" aria-label={appConfig.chart.title} data-status={status}>
      {body}
    </section>
  )
}
