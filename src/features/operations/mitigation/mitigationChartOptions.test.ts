import { describe, expect, it } from 'vitest'
import { resolveColor } from '../../../shared/config/resolveColor'
import { rankingUrl } from './fetchMitigation'
import type { MitigationRanking, RankedCircuit } from './mitigationApi'
import { chartRows, DEFAULT_CHART_TOP, mitigationChartOptions } from './mitigationChartOptions'

function row(rank: number, a: number, b: number): RankedCircuit {
  return {
    id: rank,
    key: `C-${rank}`,
    bbox: [0, 0, 1, 1],
    rank,
    score: a + b,
    risk: { value: 1, normalised: 1 },
    factors: {
      a: { value: 1, normalised: 1, contribution: a },
      b: { value: 1, normalised: 1, contribution: b },
    },
    missing: [],
  }
}

function ranking(rows: RankedCircuit[], chartTop: number | null, colors = true): MitigationRanking {
  const f = (id: string, color: string) => ({
    id,
    field: id,
    label: `Factor ${id}`,
    defaultWeight: 1,
    weight: 1,
    share: 0.5,
    ...(colors ? { color } : {}),
  })
  return {
    dataset: 'd',
    key: { field: 'k', label: 'Circuit' },
    risk: { field: 'r', label: 'Risk' },
    factors: [f('a', 'primary'), f('b', '#123456')],
    weights: { a: 1, b: 1 },
    scoreFormatter: 'sigfig3',
    chartTop,
    version: 1,
    count: rows.length,
    rows,
  }
}

describe('mitigation chart', () => {
  const rows = Array.from({ length: 30 }, (_, i) => row(i + 1, 0.3 - i * 0.005, 0.2))

  it('draws the top chartTop circuits (default when config sets none), best first', () => {
    expect(chartRows(ranking(rows, 5)).map((r) => r.key)).toEqual(['C-1', 'C-2', 'C-3', 'C-4', 'C-5'])
    expect(chartRows(ranking(rows, null))).toHaveLength(DEFAULT_CHART_TOP)
  })

  it('stacks one series per factor holding its contributions, in the factors’ colours', () => {
    const o = mitigationChartOptions(ranking(rows.slice(0, 2), 10))
    expect(o.chart?.stacked).toBe(true)
    expect(o.plotOptions?.bar?.horizontal).toBe(true)
    expect(o.series).toEqual([
      { name: 'Factor a', data: [0.3, 0.295] },
      { name: 'Factor b', data: [0.2, 0.2] },
    ])
    expect(o.xaxis?.categories).toEqual(['C-1', 'C-2'])
    expect(o.colors).toEqual([resolveColor('primary'), '#123456'])
    expect(mitigationChartOptions(ranking(rows.slice(0, 2), 10, false)).colors).toBeUndefined()
  })
})

describe('rankingUrl', () => {
  it('asks for the defaults without a query, else one weight.<id> per factor', () => {
    expect(rankingUrl(null)).toBe('/api/mitigation')
    expect(rankingUrl({ a: 0.5, b: 0 })).toBe('/api/mitigation?weight.a=0.5&weight.b=0')
  })
})
