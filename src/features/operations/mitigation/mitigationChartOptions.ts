import type { ApexOptions } from 'apexcharts'
import { themeConfig } from '../../../shared/config'
import { resolveColor } from '../../../shared/config/resolveColor'
import { formatValue } from '../../../shared/format'
import type { MitigationRanking } from './mitigationApi'

/** Circuits the chart shows when config sets no chartTop. */
export const DEFAULT_CHART_TOP = 15

/** The top-ranked rows the chart draws, best first. */
export function chartRows(ranking: MitigationRanking) {
  return ranking.rows.slice(0, ranking.chartTop ?? DEFAULT_CHART_TOP)
}

/**
 * Horizontal stacked bars of the top circuits: one series per consequence factor holding its
 * contribution, so each bar's length is the circuit's score and the weights' effect shows as the
 * segments' sizes.
 */
export function mitigationChartOptions(ranking: MitigationRanking): ApexOptions {
  const rows = chartRows(ranking)
  const colors = themeConfig.colors
  const factorColors = ranking.factors.map((f) => (f.color ? resolveColor(f.color) : undefined))
  const format = (v: number) => formatValue(ranking.scoreFormatter, v)
  return {
    chart: {
      type: 'bar',
      stacked: true,
      height: Math.max(160, 28 + rows.length * 22),
      background: 'transparent',
      foreColor: colors.grey5,
      toolbar: { show: false },
      zoom: { enabled: false },
      animations: { enabled: false },
    },
    theme: { mode: 'dark' },
    plotOptions: { bar: { horizontal: true, barHeight: '70%' } },
    series: ranking.factors.map((f) => ({
      name: f.label,
      data: rows.map((r) => r.factors[f.id]?.contribution ?? 0),
    })),
    ...(factorColors.every((c): c is string => c !== undefined) ? { colors: factorColors } : {}),
    xaxis: {
      categories: rows.map((r) => r.key),
      title: { text: 'Score' },
      labels: { formatter: (value: string) => format(Number(value)) },
    },
    yaxis: { labels: { maxWidth: 140 } },
    legend: { show: true, position: 'top', horizontalAlign: 'left', labels: { colors: colors.grey5 } },
    dataLabels: { enabled: false },
    grid: { borderColor: colors.grey2 },
    tooltip: { theme: 'dark', shared: true, intersect: false, y: { formatter: format } },
  }
}
