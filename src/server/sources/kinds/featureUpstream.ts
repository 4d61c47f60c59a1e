import type { ArcgisFeatureServerSource, GeojsonSource, OgcFeaturesSource } from '../../../shared/config'
import { fetchUpstream, UpstreamFailure } from '../fetchUpstream'
import type { CachedAnswer, SourceCache } from '../sourceCache'
import { fillEnv } from '../upstreamUrl'
import { dropArcgisToken, isTokenRefusal, withArcgisToken } from './arcgisToken'

/** Another server's features, cut by our server into vector tiles (and, but geojson, records). */
export type FeatureSource = ArcgisFeatureServerSource | OgcFeaturesSource | GeojsonSource

export function isFeatureSource(s: { readonly type: string }): s is FeatureSource {
  return s.type === 'arcgis-featureserver' || s.type === 'ogc-features' || s.type === 'geojson'
}

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_MAX_BYTES = 5_000_000

/** The source's URL with `${NAME}` filled, without a trailing slash. */
export function baseUrl(source: FeatureSource, env: NodeJS.ProcessEnv): URL {
  const url = new URL(fillEnv(source.url, env, true))
  url.pathname = url.pathname.replace(/\/+$/, '')
  return url
}

/** The JSON an upstream answered, parsed, with the cache's word on how it was served. */
export interface UpstreamJson {
  readonly json: unknown
  /** The answer's bytes (the same Buffer while the cache holds the same answer). */
  readonly body: Buffer
}

/** Parsed answers, kept while the cache holds the same bytes (a GeoJSON file is parsed once). */
const parsed = new WeakMap<Buffer, unknown>()

/**
 * GETs one upstream JSON document of a feature source through the proxy's rules (its host only,
 * private addresses refused unless allowed, the source's credentials, timeout and size cap, the
 * shared response cache with coalescing). Anything but a 200 with JSON — an ArcGIS `{error}` body
 * included — is an UpstreamFailure (502), so the routes answer 502/504 JSON.
 */
export async function upstreamJson(
  source: FeatureSource,
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  url: URL,
): Promise<UpstreamJson> {
  for (const [k, v] of Object.entries(source.query ?? {})) url.searchParams.set(k, fillEnv(v, env, false))
  const allowedHost = baseUrl(source, env).host
  const headers: Record<string, string> = { accept: 'application/geo+json, application/json;q=0.9' }
  for (const [k, v] of Object.entries(source.headers ?? {})) headers[k] = fillEnv(v, env, false)
  const secured = source.type === 'arcgis-featureserver' ? source : null
  let answer: CachedAnswer
  for (let attempt = 0; ; attempt++) {
    // An ArcGIS token rides in the URL (so in the cache key: a renewed token never meets an old answer).
    const asked = secured ? await withArcgisToken(new URL(url), secured, env) : url
    answer = (
      await cache.get(`${source.id} ${asked.href}`, (conditional) =>
        fetchUpstream({
          url: asked,
          allowedHost,
          headers: { ...headers, ...conditional },
          timeoutMs: source.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxBytes: source.maxBytes ?? DEFAULT_MAX_BYTES,
          allowPrivateNetwork: source.allowPrivateNetwork === true,
        }),
      )
    ).answer
    // A token the server no longer takes (498/499): a new one from generateToken, once.
    if (!secured?.tokenExchange || attempt > 0 || !isTokenRefusal(answer)) break
    dropArcgisToken(secured)
  }
  if (answer.status !== 200) throw new UpstreamFailure(502, `upstream answered HTTP ${answer.status}`)
  let json: unknown = parsed.get(answer.body)
  if (json === undefined) {
    try {
      json = JSON.parse(answer.body.toString('utf8'))
    } catch {
      throw new UpstreamFailure(
        502,
        `upstream answered ${answer.contentType ?? 'something'} that is not JSON`,
      )
    }
    parsed.set(answer.body, json)
  }
  const error = isObject(json) && isObject(json.error) ? json.error : null
  if (error) {
    const code = typeof error.code === 'number' ? ` ${error.code}` : ''
    const message = typeof error.message === 'string' ? error.message : 'no message'
    throw new UpstreamFailure(502, `upstream error${code}: ${message.slice(0, 200)}`)
  }
  return { json, body: answer.body }
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
