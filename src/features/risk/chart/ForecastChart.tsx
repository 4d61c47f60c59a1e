import ApexCharts from 'apexcharts'
import { useEffect, useMemo, useRef } from 'react'
import { forecastChartOptions } from './forecastChartOptions'

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
    const chart = new ApexCharts(element, options)
    void chart.render()
    return () => chart.destroy()
  }, [options])
  // ApexCharts sizes a '100%' height by the host's parent, so the parent carries the height.
  return (
    <div className="emberline-forecast-chart" data-testid="forecast-chart">
      <div ref={host} />
    </div>
  )
}
