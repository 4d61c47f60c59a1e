// The tree-shaken ApexCharts build (bar chart + legend): this module is loaded lazily by the panel,
// so ApexCharts stays out of the initial bundle.
import ApexCharts from 'apexcharts/core'
import 'apexcharts/bar'
import 'apexcharts/features/legend'
import { useEffect, useRef } from 'react'
import type { MitigationRanking } from './mitigationApi'
import { chartRows, mitigationChartOptions } from './mitigationChartOptions'

export interface MitigationChartProps {
  readonly ranking: MitigationRanking
}

/** The ranking chart: the top circuits as stacked bars of each factor's contribution. */
export function MitigationChart({ ranking }: MitigationChartProps) {
  const host = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = host.current
    if (!element) return
    const chart = new ApexCharts(element, mitigationChartOptions(ranking))
    void chart.render()
    return () => chart.destroy()
  }, [ranking])
  return (
    <div
      className="el-mitigation-chart"
      data-testid="mitigation-chart"
      data-keys={chartRows(ranking)
        .map((r) => r.key)
        .join(',')}
    >
      <div ref={host} />
    </div>
  )
}
