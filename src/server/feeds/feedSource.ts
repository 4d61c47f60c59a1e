import type { FeedDefinition, FeedsConfig } from '../../shared/config'
import { datePlaceholders } from './feedTime'

/** The box a feed keeps records in: its own filter box, the territory, or null (filter.bbox: none). */
export function filterBox(
  config: FeedsConfig,
  feed: FeedDefinition,
  override?: readonly number[],
): readonly number[] | null {
  if (override) return override
  const b = feed.filter?.bbox
  if (b === 'none') return null
  if (Array.isArray(b)) return b
  return config.territory.bbox
}

/**
 * Fills `${NAME}` placeholders: `bbox` (w,s,e,n), `YYYY`/`MM`/`DD` (UTC date of the run clock), the
 * caller's `extra` ones (a grid feed's `RUN_YYYY` …) and environment variables. Throws naming a variable that is not set, so a missing key is a clear error.
 */
export function fillPlaceholders(
  template: string,
  env: NodeJS.ProcessEnv,
  box: readonly number[] | null,
  now: number,
  encode = true,
  extra: Readonly<Record<string, string>> = {},
): string {
  const builtIn: Record<string, string> = {
    ...datePlaceholders(now),
    ...(box ? { bbox: box.join(',') } : {}),
    ...extra,
  }
  return template.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => {
    const v = builtIn[name] ?? env[name]
    if (v === undefined || v === '')
      throw new Error(`environment variable ${name} is not set (needed by the feed's source)`)
    return builtIn[name] !== undefined || !encode ? v : encodeURIComponent(v)
  })
}
