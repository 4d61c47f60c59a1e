import type { ApexOptions } from 'apexcharts'
import { appConfig, themeConfig } from '../../../shared/config'
import { parseHexColor, rgbaToCss } from '../../../shared/colorRamp'
import { findCrossings, riskLabel } from '../../../shared/risk'
import { xTickAmount } from './xAxisTicks'

/** The chart settings of appConfig.chart that shape the drawing. */
export interface ForecastChartSettings {
  readonly title: string
  readonly yAxis: {
    readonly min: number
    readonly max: number
    readonly tickAmount: number
    readonly title: string
  }
  readonly xAxis: { readonly tickAmount: number; readonly autoSkip: boolean }
  readonly seriesName: string
  readonly threshold: number
  readonly band: {
    readonly from: number
    readonly to: number
    readonly color: string
    readonly opacity?: number
  }
  readonly crossingLine: {
    readonly color: string
    readonly dashArray: readonly number[]
    readonly width: number
    readonly opacity: number
  }
  readonly line: {
    readonly width: number
    readonly color: string
    readonly curve: string
    readonly markers: boolean
  }
  readonly legend: boolean
}

/** Font of the x-axis labels (ApexCharts' default family), also used to measure them. */
export const X_LABEL_FONT = { size: 12, family: 'Helvetica, Arial, sans-serif' } as const

/** Class put on each dashed crossing line, so tests and styles can find them. */
export const CROSSING_LINE_CLASS = 'emberline-crossing-line'

function curveOf(curve: string): 'straight' | 'smooth' | 'stepline' {
  return curve === 'smooth' || curve === 'stepline' ? curve : 'straight'
}

/**
 * ApexCharts options for the forecast chart (spec §2 and §9). Tick settings in config are
 * maxima of drawn ticks; ApexCharts counts intervals, hence `- 1`. `xTicks` is the x tick amount
 * that fits the drawn width (`xTickAmount`: fewer labels on a phone); by default the configured
 * maximum. The crossing line's dash uses the first dash length (SVG repeats it as the gap: 5 → "5 5").
 */
export function forecastChartOptions(
  labels: readonly string[],
  scores: readonly number[],
  settings: ForecastChartSettings = appConfig.chart,
  xTicks: number = xTickAmount(labels.length, settings.xAxis.tickAmount),
): ApexOptions {
  const crossingColor = rgbaToCss(withOpacity(settings.crossingLine.color, settings.crossingLine.opacity))
  const crossings = findCrossings(scores, settings.threshold)
  const colors = themeConfig.colors
  return {
    chart: {
      type: 'line',
      height: '100%',
      background: 'transparent',
      foreColor: colors.grey5,
      toolbar: { show: false },
      zoom: { enabled: false },
      animations: { enabled: false },
    },
    theme: { mode: 'dark' },
    title: { text: settings.title, style: { color: colors.text } },
    series: [{ name: settings.seriesName, data: [...scores] }],
    labels: [...labels],
    colors: [settings.line.color],
    stroke: { width: settings.line.width, curve: curveOf(settings.line.curve) },
    markers: { size: settings.line.markers ? 4 : 0 },
    legend: { show: settings.legend },
    dataLabels: { enabled: false },
    grid: { borderColor: colors.grey2 },
    xaxis: {
      type: 'category',
      tickAmount: xTicks,
      labels: {
        rotate: 0,
        hideOverlappingLabels: settings.xAxis.autoSkip,
        trim: false,
        style: { fontSize: `${X_LABEL_FONT.size}px`, fontFamily: X_LABEL_FONT.family },
      },
      axisTicks: { show: false },
      tooltip: { enabled: false },
    },
    yaxis: {
      min: settings.yAxis.min,
      max: settings.yAxis.max,
      tickAmount: Math.max(1, settings.yAxis.tickAmount - 1),
      title: { text: settings.yAxis.title },
      labels: { formatter: (value: number) => value.toFixed(1) },
    },
    tooltip: {
      theme: 'dark',
      y: { formatter: (value: number) => `${value.toFixed(2)} (${riskLabel(value)})` },
    },
    annotations: {
      yaxis: [
        {
          y: settings.band.from,
          y2: settings.band.to,
          fillColor: settings.band.color,
          borderColor: settings.band.color,
          opacity: settings.band.opacity ?? 1,
        },
      ],
      xaxis: crossings.flatMap((crossing) => {
        const x = labels[crossing.index]
        if (x === undefined) return []
        return [
          {
            x,
            id: CROSSING_LINE_CLASS,
            borderColor: crossingColor,
            borderWidth: settings.crossingLine.width,
            strokeDashArray: settings.crossingLine.dashArray[0] ?? 0,
          },
        ]
      }),
    },
  }
}

function withOpacity(hex: string, opacity: number): readonly [number, number, number, number] {
  const [r, g, b, a] = parseHexColor(hex)
  return [r, g, b, Math.round((a / 255) * opacity * 255)]
}
