import { layersConfig } from '../../../generated/config'
import type { SourceConfig } from '../catalog/catalogTypes'

const hourly = new Set(layersConfig.grids.filter((g) => (g.hourly ?? 1) > 1).map((g) => g.id))

/** True for a `type: png` source whose grid holds hourly steps (config/layers.yaml grids[].hourly). */
export function isHourlySource(source: SourceConfig): boolean {
  return source.type === 'png' && source.grid !== undefined && hourly.has(source.grid)
}

/**
 * A raster tile URL for the chosen forecast hour: `hour=N` is added for hourly sources when an
 * hour is set (Planning Mode's slider); otherwise the URL is unchanged (the server's current hour).
 */
export function withForecastHour(url: string, source: SourceConfig, hour: number | null): string {
  if (hour === null || !isHourlySource(source)) return url
  return `${url}${url.includes('?') ? '&' : '?'}hour=${hour}`
}
