import { describe, expect, it } from 'vitest'
import { layersConfig, sourceOfType } from '../../../shared/config'
import { withForecastHour } from './hourlyTileUrl'
import { tileUrlTemplate } from './tileUrlTemplate'

describe('withForecastHour', () => {
  const gust = sourceOfType('wind_gust_next_png', 'png')
  const slope = sourceOfType('slope_png', 'png')
  const lines = sourceOfType('psps_lines_mvt', 'mvt')
  const gustGrid = layersConfig.grids.find((g) => g.id === gust.grid)!

  it('adds hour=N to hourly raster URLs only, and only when an hour is set', () => {
    const url = tileUrlTemplate(gust, false)
    expect(withForecastHour(url, gust, 5)).toBe(`${url}?hour=5`)
    expect(withForecastHour(`${url}?run=1`, gust, 0)).toBe(`${url}?run=1&hour=0`)
    expect(withForecastHour(url, gust, null)).toBe(url)
    expect(withForecastHour(url, gust, 500)).toBe(`${url}?hour=${(gustGrid.hourly ?? 1) - 1}`)
    expect(withForecastHour(tileUrlTemplate(slope, false), slope, 5)).toBe(tileUrlTemplate(slope, false))
    expect(withForecastHour(tileUrlTemplate(lines, false), lines, 5)).toBe(tileUrlTemplate(lines, false))
  })
})
