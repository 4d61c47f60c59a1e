import { describe, expect, it } from 'vitest'
import { layersConfig } from '../../../shared/config'
import { sourceById, tileUrlTemplate } from '../catalog/catalog'
import { isHourlySource, withForecastHour } from './hourlyTileUrl'

describe('withForecastHour', () => {
  const gust = sourceById('wind_gust_next_png')
  const slope = sourceById('slope_png')
  const lines = sourceById('psps_lines_mvt')
  const gustGrid = layersConfig.grids.find((g) => g.id === gust.grid)!

  it('knows the hourly raster sources from the grids', () => {
    expect(isHourlySource(gust)).toBe(true)
    expect(isHourlySource(slope)).toBe(false)
    expect(isHourlySource(lines)).toBe(false)
  })

  it('adds hour=N to hourly raster URLs only, and only when an hour is set', () => {
    const url = tileUrlTemplate(gust, false)
    expect(withForecastHour(url, gust, 5)).toBe(`${url}?hour=5`)
    expect(withForecastHour(`${url}?run=1`, gust, 0)).toBe(`${url}?run=1&hour=0`)
    expect(withForecastHour(url, gust, null)).toBe(url)
    expect(withForecastHour(url, gust, 500)).toBe(`${url}?hour=${(gustGrid.hourly ?? 1) - 1}`)
    expect(withForecastHour(tileUrlTemplate(slope, false), slope, 5)).toBe(tileUrlTemplate(slope, false))
  })
})
