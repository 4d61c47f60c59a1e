import { appConfig } from '../shared/config'

/** Reads a number at `path` of the app config, or `fallback` when absent (keys may be optional). */
function numberAt(path: string[], fallback: number): number {
  let v: unknown = appConfig
  for (const k of path)
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback
}

function stringAt(path: string[], fallback: string): string {
  let v: unknown = appConfig
  for (const k of path)
    v = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[k] : undefined
  return typeof v === 'string' && v !== '' ? v : fallback
}

/** The server settings drawn from config/app.yaml, with the documented defaults. */
export function serverSettings() {
  const dataPath = stringAt(['chart', 'dataPath'], 'data/demo/public_safety_power_shutoff_risk_score/records')
  const seriesName =
    dataPath
      .replace(/\/records$/, '')
      .split('/')
      .pop() ?? 'public_safety_power_shutoff_risk_score'
  return {
    referenceDate: stringAt(['demo', 'referenceDate'], '2025-03-05'),
    timeZone: stringAt(['demo', 'timeZone'], 'America/Denver'),
    cookieName: stringAt(['identity', 'cookies', 'session'], 'stytch_session'),
    defaultLimit: numberAt(['tables', 'itemsPerPage'], 100),
    maxLimit: numberAt(['tables', 'maxLimit'], 1000),
    tiles: {
      maxGzipBytes: numberAt(['tiles', 'maxGzipBytes'], 500_000),
      maxFeatures: numberAt(['tiles', 'maxFeatures'], 50_000),
      maxCacheBytes: numberAt(['tiles', 'cacheMaxMB'], 256) * 1024 * 1024,
    },
    series: [
      {
        path: dataPath,
        name: seriesName,
        timestampKey: stringAt(['chart', 'timestampField'], 'timestamp'),
        valueKey: stringAt(['chart', 'scoreField'], 'risk_score_psps'),
      },
    ],
  }
}

export type ServerSettings = ReturnType<typeof serverSettings>
