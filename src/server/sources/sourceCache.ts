import { LRUCache } from 'lru-cache'
import type { UpstreamAnswer } from './fetchUpstream'

/** One cached upstream answer with its freshness (from the upstream's own caching headers). */
export interface CachedAnswer {
  readonly status: number
  readonly contentType: string | undefined
  readonly etag: string | undefined
  readonly lastModified: string | undefined
  readonly body: Buffer
  /** Epoch ms until which it is served without asking upstream (0 = always revalidate). */
  readonly freshUntil: number
  /** The upstream said no-store: never kept. */
  readonly noStore: boolean
}

export interface ProxyResult {
  readonly answer: CachedAnswer
  /** hit (fresh in cache), miss (fetched), revalidated (304 from upstream), stale (upstream failed). */
  readonly cache: 'hit' | 'miss' | 'revalidated' | 'stale'
}

export interface SourceCacheOptions {
  /** Most answers kept (default 5000). */
  readonly maxEntries?: number
  /** Most body bytes kept (default 100 MB). */
  readonly maxBytes?: number
  readonly now?: () => number
}

/** The conditional request headers for revalidating a cached answer. */
export type Conditional = Record<string, string>

/** Freshness lifetime in seconds from Cache-Control (s-maxage, max-age) or Expires - Date. */
export function freshnessOf(
  headers: UpstreamAnswer['headers'],
  now: number,
): { seconds: number; noStore: boolean } {
  const cc = String(headers['cache-control'] ?? '').toLowerCase()
  const directive = (name: string) =>
    new RegExp(`(?:^|,)\\s*${name}\\s*(?:=\\s*"?(\\d+)"?)?\\s*(?:,|$)`).exec(cc)
  if (directive('no-store') || directive('private')) return { seconds: 0, noStore: true }
  if (directive('no-cache')) return { seconds: 0, noStore: false }
  const max = directive('s-maxage') ?? directive('max-age')
  if (max?.[1] !== undefined) return { seconds: Number(max[1]), noStore: false }
  const expires = headers.expires === undefined ? NaN : Date.parse(headers.expires)
  if (Number.isFinite(expires)) {
    const date = headers.date === undefined ? NaN : Date.parse(headers.date)
    return { seconds: Math.max(0, (expires - (Number.isFinite(date) ? date : now)) / 1000), noStore: false }
  }
  return { seconds: 0, noStore: false }
}

/**
 * The proxy's response cache: bounded by entries and bytes (LRU), fresh answers served without
 * an upstream request, stale ones revalidated with If-None-Match / If-Modified-Since, the last
 * good answer served when the upstream fails, and concurrent identical requests coalesced into one.
 */
export class SourceCache {
  private readonly lru: LRUCache<string, CachedAnswer>
  private readonly inflight = new Map<string, Promise<ProxyResult>>()
  private readonly now: () => number
  /**
   * Told the key (`<source id> <url>` as the proxy spells it) each time a kept answer is served
   * because the upstream failed: the source's health learns it is down even though the caller got data.
   */
  onStale: ((key: string) => void) | null = null

  constructor(opts: SourceCacheOptions = {}) {
    this.now = opts.now ?? Date.now
    this.lru = new LRUCache<string, CachedAnswer>({
      max: opts.maxEntries ?? 5000,
      maxSize: opts.maxBytes ?? 100_000_000,
      sizeCalculation: (a) => a.body.length + 256,
    })
  }

  /** The answer for `key`, from the cache or from `fetcher` (called once for concurrent callers). */
  get(key: string, fetcher: (conditional: Conditional) => Promise<UpstreamAnswer>): Promise<ProxyResult> {
    const cached = this.lru.get(key)
    if (cached && this.now() < cached.freshUntil) return Promise.resolve({ answer: cached, cache: 'hit' })
    const running = this.inflight.get(key)
    if (running) return running
    const work = this.refresh(key, cached, fetcher).finally(() => this.inflight.delete(key))
    this.inflight.set(key, work)
    return work
  }

  private stale(key: string, cached: CachedAnswer): ProxyResult {
    this.onStale?.(key)
    return { answer: cached, cache: 'stale' }
  }

  private async refresh(
    key: string,
    cached: CachedAnswer | undefined,
    fetcher: (conditional: Conditional) => Promise<UpstreamAnswer>,
  ): Promise<ProxyResult> {
    const conditional: Conditional = {}
    if (cached?.etag) conditional['if-none-match'] = cached.etag
    else if (cached?.lastModified) conditional['if-modified-since'] = cached.lastModified
    let upstream: UpstreamAnswer
    try {
      upstream = await fetcher(conditional)
    } catch (e) {
      if (cached) return this.stale(key, cached)
      throw e
    }
    if (cached && upstream.status >= 500) return this.stale(key, cached)
    const now = this.now()
    const { seconds, noStore } = freshnessOf(upstream.headers, now)
    if (cached && upstream.status === 304) {
      const renewed = { ...cached, freshUntil: now + seconds * 1000 }
      this.lru.set(key, renewed)
      return { answer: renewed, cache: 'revalidated' }
    }
    const answer: CachedAnswer = {
      status: upstream.status,
      contentType: header(upstream.headers['content-type']),
      etag: header(upstream.headers.etag),
      lastModified: header(upstream.headers['last-modified']),
      body: upstream.body,
      freshUntil: now + seconds * 1000,
      noStore,
    }
    if (upstream.status === 200 && !noStore) this.lru.set(key, answer)
    else this.lru.delete(key)
    return { answer, cache: 'miss' }
  }
}

function header(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v
}
