import { appConfig, layersConfig } from '../../shared/config'
import { authFetch } from './authFetch'
import { onSessionStart } from './dataSources'

/** The wind grids (`type: wind` sources) and smoke services (app.yaml `smoke`) the app reads. */
const windBases = layersConfig.sources.filter((s) => s.type === 'wind').map((s) => `/api/data/${s.path}`)
const smokeBases = [appConfig.smoke?.serviceBaseUrl]
  .filter((u): u is string => typeof u === 'string')
  .map((u) => u.replace(/\/$/, ''))

const cache = new Map<string, Promise<unknown>>()

async function getJson(url: string): Promise<unknown> {
  const response = await authFetch(url)
  if (!response.ok) throw new Error(`${url} answered ${response.status}`)
  return response.json()
}

/** One fetch per session; a failure is logged (spec §8) and forgotten, so a later use may retry. */
function cached(key: string, load: () => Promise<unknown>): Promise<unknown> {
  let p = cache.get(key)
  if (!p) {
    p = load()
    cache.set(key, p)
    p.catch((error: unknown) => {
      cache.delete(key)
      console.warn(`${key} unavailable`, error)
    })
  }
  return p
}

/** The wind grid records of a wind source (`/api/data/<path>`): its tileset id, then that grid. */
export function windGrid(base: string): Promise<unknown> {
  return cached(`wind ${base}`, async () => {
    const tileset = (await getJson(`${base}/tileset`)) as { tileset_id?: string }
    if (!tileset.tileset_id) throw new Error(`${base}/tileset has no tileset_id`)
    return getJson(`${base}/grid/${encodeURIComponent(tileset.tileset_id)}`)
  })
}

/** The smoke weather service's config (model runs and inventory) at `base`. */
export function smokeServiceConfig(base: string): Promise<unknown> {
  return cached(`smoke ${base}`, () => getJson(`${base.replace(/\/$/, '')}/config`))
}

/**
 * Spec §4: wind vector and smoke sources are initialised after login — fetched as soon as a
 * session starts, whatever screen is open, and kept for the layers that draw them. A session that
 * ends drops them (the next one fetches afresh).
 */
export function registerSessionSources(): () => void {
  return onSessionStart(() => {
    cache.clear()
    for (const base of windBases) void windGrid(base).catch(() => {})
    for (const base of smokeBases) void smokeServiceConfig(base).catch(() => {})
  })
}
