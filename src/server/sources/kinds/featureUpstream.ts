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
  if (answer.status !== 200) {
    throw new UnreadableAnswer(`upstream answered HTTP ${answer.status}`, answer.status)
  }
  let json: unknown = parsed.get(answer.body)
  if (json === undefined) {
    try {
      json = JSON.parse(answer.body.toString('utf8'))
    } catch {
      throw new UnreadableAnswer(
        `upstream answered ${answer.contentType ?? 'something'} that is not JSON`,
        answer.status,
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

/** The upstream answered, but not a 200 with JSON (its HTTP status says which). A 502 to our clients. */
export class UnreadableAnswer extends UpstreamFailure {
  constructor(
    message: string,
    readonly upstreamStatus: number,
  ) {
    super(502, message)
  }
}

/**
 * How an OGC API – Features server is asked for JSON, in the order tried: `f=json` (MapServer,
 * which answers 500 "Template directory not set" without it; pygeoapi, ldproxy), `f=application/geo+json`
 * (GeoServer's spelling), then no `f` at all, the Accept header alone (the standard's content negotiation).
 */
const OGC_FORMATS: readonly (string | null)[] = ['json', 'application/geo+json', null]
/** Upstream statuses that may mean "not in that format" (rather than "down"): the next spelling is tried. */
const FORMAT_REFUSALS = new Set([400, 404, 406, 415, 500, 501])
/** The spelling that last worked, per source (kept for the process: later requests ask it first). */
const ogcFormats = new WeakMap<OgcFeaturesSource, string | null>()

/**
 * upstreamJson for an OGC API – Features document (collection, items, conformance, queryables):
 * asked as JSON with the spelling that last worked for this source, else each of OGC_FORMATS in
 * turn while the server refuses it (an HTTP error of FORMAT_REFUSALS or a body that is not JSON);
 * a timeout, a refused address or a 502/503 is the source's failure and is not retried. A URL that
 * already carries `f` (a `next` link the server wrote) or a source whose YAML `query` sets `f` is
 * asked as it is. The online check (scripts/config/onlineKinds.ts) reads through this too.
 */
export async function ogcJson(
  source: OgcFeaturesSource,
  env: NodeJS.ProcessEnv,
  cache: SourceCache,
  url: URL,
): Promise<UpstreamJson> {
  if (url.searchParams.has('f') || source.query?.f !== undefined) {
    return upstreamJson(source, env, cache, url)
  }
  const known = ogcFormats.get(source)
  const order = known === undefined ? OGC_FORMATS : [known, ...OGC_FORMATS.filter((f) => f !== known)]
  let first: UnreadableAnswer | null = null
  for (const format of order) {
    const asked = new URL(url)
    if (format !== null) asked.searchParams.set('f', format)
    try {
      const answer = await upstreamJson(source, env, cache, asked)
      ogcFormats.set(source, format)
      return answer
    } catch (e) {
      if (
        !(e instanceof UnreadableAnswer) ||
        !(e.upstreamStatus === 200 || FORMAT_REFUSALS.has(e.upstreamStatus))
      ) {
        throw e
      }
      first ??= e
    }
  }
  throw first ?? new UpstreamFailure(502, 'upstream answered no JSON')
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}
