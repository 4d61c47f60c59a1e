import type { BasemapSettings } from '../../shared/config'

/** CSP sources a basemap of config/app.yaml `map.basemap` needs beyond our own origin. */
export interface BasemapOrigins {
  /** XYZ raster tiles are <img> elements. */
  readonly img: readonly string[]
  /** PMTiles archives are read with fetch (HTTP range requests). */
  readonly connect: readonly string[]
}

/**
 * The origin of a deployment's basemap URL, in the directive the browser checks it against; nothing
 * for the offline basemap or a path on this server. `{s}` subdomains become one source per value.
 */
export function basemapOrigins(b: BasemapSettings): BasemapOrigins {
  if (b.type === 'offline' || !b.url || !/^https?:\/\//.test(b.url)) return { img: [], connect: [] }
  const hosts = b.url.includes('{s}')
    ? (b.subdomains ?? []).map((s) => b.url?.replaceAll('{s}', s) ?? '')
    : [b.url]
  const origins = [...new Set(hosts.map((u) => new URL(u.replace(/\{[a-z]+\}/g, '0')).origin))]
  return b.type === 'xyz' ? { img: origins, connect: [] } : { img: [], connect: origins }
}
