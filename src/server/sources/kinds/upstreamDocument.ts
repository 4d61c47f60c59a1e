import { fetchUpstream, UpstreamFailure } from '../fetchUpstream'
import { allowedHost, upstreamHeaders, type ExternalSource } from '../upstreamUrl'

const DEFAULT_TIMEOUT_MS = 10_000
const DEFAULT_MAX_BYTES = 5_000_000

/**
 * GETs a metadata document of a source (WMTS capabilities, an ArcGIS service JSON) through the
 * same guarded fetch as its tiles: its one host, its headers, timeout and size cap. A non-200
 * answer is an UpstreamFailure (502).
 */
export async function fetchDocument(
  source: ExternalSource,
  env: NodeJS.ProcessEnv,
  url: URL,
): Promise<Buffer> {
  const answer = await fetchUpstream({
    url,
    allowedHost: allowedHost(source, env),
    headers: upstreamHeaders(source, env),
    timeoutMs: source.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    maxBytes: source.maxBytes ?? DEFAULT_MAX_BYTES,
    allowPrivateNetwork: source.allowPrivateNetwork === true,
  })
  if (answer.status !== 200) throw new UpstreamFailure(502, `${url.pathname} answered HTTP ${answer.status}`)
  return answer.body
}

/**
 * Values per key made once and kept for `okMs` (a failure for `failMs`, so a broken upstream is
 * not asked on every tile); concurrent asks for one key share one making.
 */
export class Memo<T> {
  private readonly entries = new Map<string, { until: number; value: Promise<T> }>()
  constructor(
    private readonly okMs: number,
    private readonly failMs: number,
  ) {}

  get(key: string, make: () => Promise<T>, now = Date.now()): Promise<T> {
    const hit = this.entries.get(key)
    if (hit && hit.until > now) return hit.value
    const value = make()
    const entry = { until: Number.POSITIVE_INFINITY, value }
    this.entries.set(key, entry)
    value.then(
      () => (entry.until = Date.now() + this.okMs),
      () => (entry.until = Date.now() + this.failMs),
    )
    return value
  }

  /** Forgets a key (an ArcGIS token the server refused). */
  drop(key: string): void {
    this.entries.delete(key)
  }
}
