import { useEffect, useState } from 'react'
import { appConfig } from '../../../shared/config'
import { smokeServiceConfig } from '../../session'
import { serviceTileTemplate } from './smokeService'

const serviceBases: readonly string[] = [appConfig.smoke?.serviceBaseUrl].filter(
  (u): u is string => typeof u === 'string',
)

/**
 * Tile URL templates that raster services (the smoke weather service of config/app.yaml) publish,
 * keyed by the map layer id their inventory names. Fetched once when `enabled` first becomes true;
 * a failure is only logged and the layer stays on its configured source (spec §8).
 */
export function useServiceTiles(enabled: boolean): ReadonlyMap<string, string> {
  const [templates, setTemplates] = useState<ReadonlyMap<string, string>>(new Map())
  const [requested, setRequested] = useState(false)
  if (enabled && !requested) setRequested(true)
  useEffect(() => {
    if (!requested) return
    let live = true
    Promise.all(serviceBases.map(async (base) => serviceTileTemplate(await smokeServiceConfig(base))))
      .then((found) => {
        if (!live) return
        setTemplates(new Map(found.flatMap((t) => (t ? [[t.layer, t.url] as const] : []))))
      })
      .catch((error: unknown) => console.warn('Smoke service unavailable', error))
    return () => {
      live = false
    }
  }, [requested])
  return templates
}
