// The tree-shaken ApexCharts build: the bare class plus the line chart and annotations (band and
// crossing lines); the legend feature is fetched only when config turns the legend on.
import ApexCharts from 'apexcharts/core'
import 'apexcharts/line'
import 'apexcharts/features/annotations'
import { useEffect, useMemo, useRef } from 'react'
import { appConfig } from '../../../shared/config'
import { forecastChartOptions } from './forecastChartOptions'

const legendFeature: Promise<unknown> = appConfig.chart.legend ? import('./legendFeature') : Promise.resolve()

export interface ForecastChartProps {
  /** Axis labels, one per score. */
  readonly labels: readonly string[]
  readonly scores: readonly number[]
}

/**
 * ApexCharts draws annotations over the series; the shaded band goes behind the line instead,
 * so the white line stays white inside it (same SVG group, moved before the series).
 */
function sendBandBehindSeries(host: Element | null): void {
  const band = host?.querySelector('.apexcharts-yaxis-annotations')
  const series = host?.querySelector('.apexcharts-line-series')
  if (band && series && band.parentNode === series.parentNode) series.parentNode?.insertBefore(band, series)
}

/** The forecast line chart (the only component that imports ApexCharts). */
export function ForecastChart({ labels, scores }: ForecastChartProps) {
  const host = useRef<HTMLDivElement>(null)
  const options = useMemo(() => {
    const base = forecastChartOptions(labels, scores)
    const reorder = () => sendBandBehindSeries(host.current)
    return { ...base, chart: { ...base.chart, events: { mounted: reorder, updated: reorder } } }
  }, [labels, scores])
  useEffect(() => {
    const element = host.current
    if (!element) return
    let chart: ApexCharts | null = null
    let live = true
    void legendFeature.then(() => {
      if (!live) return
      chart = new ApexCharts(element, options)
      void chart.render()
    })
    return () => {
      live = false
      chart?.destroy()
    }
  }, [options])
  // ApexCharts sizes a '100%' height by the host's parent, so the parent carries the height.
  return (
    <div className="emberline-forecast-chart" data-testid="forecast-chart">
      <div ref={host} />
    </div>
  )
}
