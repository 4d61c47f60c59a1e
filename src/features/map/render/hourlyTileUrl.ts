import { layersConfig, type Source } from '../../../shared/config'

/** Hours held by each hourly grid (config/layers.yaml grids[].hourly > 1). */
const hoursOf = new Map(
  layersConfig.grids.flatMap((g) => ((g.hourly ?? 1) > 1 ? [[g.id, g.hourly ?? 1] as const] : [])),
)

/**
 * A raster tile URL for the chosen forecast hour: `hour=N` is added for hourly sources when an
 * hour is set (Planning Mode's slider), capped at the grid's last hour; otherwise the URL is
 * unchanged (the server's current hour).
 */
export function withForecastHour(url: string, source: Source, hour: number | null): string {
  const hours = source.type === 'png' ? hoursOf.get(source.grid) : undefined
  if (hour === null || hours === undefined) return url
  return `${url}${url.includes('?') ? '&' : '?'}hour=${Math.min(hour, hours - 1)}`
}
