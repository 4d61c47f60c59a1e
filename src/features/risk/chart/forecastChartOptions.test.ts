import { describe, expect, it } from 'vitest'
import { appConfig } from '../../../shared/config'
import { CROSSING_LINE_CLASS, forecastChartOptions } from './forecastChartOptions'

const labels = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']
const scores = [0.5, 0.7, 0.85, 0.9, 0.6, 0.8, 0.75]

describe('forecastChartOptions', () => {
  const options = forecastChartOptions(labels, scores)

  it('titles the chart, axis and series from config', () => {
    expect(options.title?.text).toBe('Forecasted Fire Risk Score')
    expect(options.series).toEqual([{ name: 'Overall PSPS Score', data: scores }])
    const yaxis = Array.isArray(options.yaxis) ? options.yaxis[0] : options.yaxis
    expect(yaxis?.title?.text).toBe('Max Risk Score Across Mesa HFA')
    expect([yaxis?.min, yaxis?.max]).toEqual([0, 1])
  })

  it('keeps at most 6 y ticks and 8 x ticks (ApexCharts counts intervals)', () => {
    const yaxis = Array.isArray(options.yaxis) ? options.yaxis[0] : options.yaxis
    expect(yaxis?.tickAmount).toBe(appConfig.chart.yAxis.tickAmount - 1)
    expect(options.xaxis?.tickAmount).toBe(appConfig.chart.xAxis.tickAmount - 1)
    expect(options.xaxis?.labels?.hideOverlappingLabels).toBe(true)
  })

  it('takes the x tick amount that fits the drawn width (fewer labels on a phone)', () => {
    expect(forecastChartOptions(labels, scores, appConfig.chart, 2).xaxis?.tickAmount).toBe(2)
  })

  it('draws a white straight line of width 3 with no markers and no legend', () => {
    expect(options.stroke).toEqual({ width: 3, curve: 'straight' })
    expect(options.colors).toEqual(['#ffffff'])
    expect(options.markers?.size).toBe(0)
    expect(options.legend?.show).toBe(false)
  })

  it('shades the 0.8-1 band dark red', () => {
    expect(options.annotations?.yaxis).toEqual([
      expect.objectContaining({ y: 0.8, y2: 1, fillColor: appConfig.chart.band.color }),
    ])
  })

  it('puts one dashed half-transparent white line at the earlier point of each crossing', () => {
    expect(options.annotations?.xaxis).toEqual([
      {
        x: 'h1',
        id: CROSSING_LINE_CLASS,
        borderColor: 'rgba(255, 255, 255, 0.502)',
        borderWidth: 1,
        strokeDashArray: 5,
      },
      {
        x: 'h3',
        id: CROSSING_LINE_CLASS,
        borderColor: 'rgba(255, 255, 255, 0.502)',
        borderWidth: 1,
        strokeDashArray: 5,
      },
      {
        x: 'h4',
        id: CROSSING_LINE_CLASS,
        borderColor: 'rgba(255, 255, 255, 0.502)',
        borderWidth: 1,
        strokeDashArray: 5,
      },
      {
        x: 'h5',
        id: CROSSING_LINE_CLASS,
        borderColor: 'rgba(255, 255, 255, 0.502)',
        borderWidth: 1,
        strokeDashArray: 5,
      },
    ])
  })

  it('draws no crossing line for a series that never crosses', () => {
    expect(forecastChartOptions(['a', 'b'], [0.1, 0.2]).annotations?.xaxis).toEqual([])
  })
})
