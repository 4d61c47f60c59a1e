// The tree-shaken ApexCharts build: the bare class plus the line chart and annotations (band and
// crossing lines); the legend feature is fetched only when config turns the legend on.
import ApexCharts from 'apexcharts/core'
import 'apexcharts/line'
import 'apexcharts/features/annotations'
import { useEffect, useMemo, useRef, useState, type RefObject } from 'react'
import { appConfig } from '../../../shared/config'
import { forecastChartOptions, X_LABEL_FONT } from './forecastChartOptions'
import { xTickAmount } from './xAxisTicks'

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

/** Drawn width (px) of the widest label in the x-axis font. */
function widestLabelPx(labels: readonly string[]): number {
  const context = document.createElement('canvas').getContext('2d')
  if (!context) return 0
  context.font = `${X_LABEL_FONT.size}px ${X_LABEL_FONT.family}`
  return labels.reduce((widest, label) => Math.max(widest, context.measureText(label).width), 0)
}

/** The element's width in px, followed as it resizes (null until first measured). */
function useWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    setWidth(element.clientWidth)
    const observer = new ResizeObserver(() => setWidth(element.clientWidth))
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return width
}

/** The forecast line chart (the only component that imports ApexCharts). */
export function ForecastChart({ labels, scores }: ForecastChartProps) {
  const host = useRef<HTMLDivElement>(null)
  const width = useWidth(host)
  const widestLabel = useMemo(() => widestLabelPx(labels), [labels])
  // The x labels that fit this width; the chart is drawn again only when that count changes.
  const { tickAmount, autoSkip } = appConfig.chart.xAxis
  const ticks =
    width === null
      ? null
      : xTickAmount(labels.length, tickAmount, autoSkip ? { chartWidth: width, widestLabel } : undefined)
  const options = useMemo(() => {
    if (ticks === null) return null
    const base = forecastChartOptions(labels, scores, appConfig.chart, ticks)
    const reorder = () => sendBandBehindSeries(host.current)
    return { ...base, chart: { ...base.chart, events: { mounted: reorder, updated: reorder } } }
  }, [labels, scores, ticks])
  useEffect(() => {
    const element = host.current
    if (!element || !options) return
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
