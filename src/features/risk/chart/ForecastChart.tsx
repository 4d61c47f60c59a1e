import ApexCharts from 'apexcharts'
import { useEffect, useMemo, useRef } from 'react'
import { forecastChartOptions } from './forecastChartOptions'

export interface ForecastChartProps {
  /** Axis labels, one per score. */
  readonly labels: readonly string[]
  readonly scores: readonly number[]
}

/** The forecast line chart (the only component that imports ApexCharts). */
export function ForecastChart({ labels, scores }: ForecastChartProps) {
  const host = useRef<HTMLDivElement>(null)
  const options = useMemo(() => forecastChartOptions(labels, scores), [labels, scores])
  useEffect(() => {
    const element = host.current
    if (!element) return
    const chart = new ApexCharts(element, options)
    void chart.render()
    return () => chart.destroy()
  }, [options])
  return <div ref={host} className="emberline-forecast-chart" data-testid="forecast-chart" />
}
