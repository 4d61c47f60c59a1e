/** The smoke weather-service config (spec §7): the client uses the last model run and the first inventory entry. */
export interface RasterServiceConfig {
  readonly modelRuns: readonly { readonly id: string }[]
  readonly inventory: readonly {
    readonly layer: string
    readonly tileUrl: string
    readonly defaultHour?: number
  }[]
}

function isServiceConfig(value: unknown): value is RasterServiceConfig {
  if (typeof value !== 'object' || value === null) return false
  const v = value as Record<string, unknown>
  return Array.isArray(v.modelRuns) && Array.isArray(v.inventory)
}

/** Leaflet tile URL template for the service's layer, or null if the config has no run or no entry. */
export function serviceTileTemplate(config: unknown): { layer: string; url: string } | null {
  if (!isServiceConfig(config)) return null
  const run = config.modelRuns.at(-1)
  const entry = config.inventory[0]
  if (!run || !entry || typeof entry.tileUrl !== 'string') return null
  const url = entry.tileUrl
    .replaceAll('{run}', encodeURIComponent(run.id))
    .replaceAll('{hour}', String(entry.defaultHour ?? 0))
  return { layer: entry.layer, url }
}
