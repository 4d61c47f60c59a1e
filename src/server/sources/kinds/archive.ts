import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CogSource, PmtilesSource, TilejsonSource } from '../../../shared/config'
import { errorCodeOf } from '../../http/httpErrors'
import { fetchUpstream, UpstreamFailure } from '../fetchUpstream'
import type { SourceCache } from '../sourceCache'
import type { SourceHealth } from '../sourceHealth'
import { fillEnv, MissingVariable } from '../upstreamUrl'

/** Sources read in pieces by our server (archives and tile sets): tilejson, pmtiles, cog. */
export type ArchiveSource = TilejsonSource | PmtilesSource | CogSource

export function isArchiveSource(s: { readonly type: string }): s is ArchiveSource {
  return s.type === 'tilejson' || s.type === 'pmtiles' || s.type === 'cog'
}

/** What every archive kind's routes share: the proxy's cache, the health record, the environment. */
export interface KindContext {
  readonly cache: SourceCache
  readonly health: SourceHealth
  readonly env: NodeJS.ProcessEnv
  /** The directory a pmtiles `file` is read from (nothing outside it). */
  readonly archiveDir: string
}

export const DEFAULT_TIMEOUT_MS = 10_000
export const DEFAULT_MAX_BYTES = 5_000_000

const WHOLE_PLACEHOLDER = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/

/** A source URL with `${NAME}` filled: a URL that is one placeholder is taken as the variable says. */
export function filledUrl(url: string, env: NodeJS.ProcessEnv): URL {
  const text = fillEnv(url, env, !WHOLE_PLACEHOLDER.test(url))
  if (!URL.canParse(text) || !/^https?:$/.test(new URL(text).protocol)) {
    throw new UpstreamFailure(502, `the source URL is not an http(s) URL`)
  }
  return new URL(text)
}

/** One upstream answer as the archive readers need it. */
export interface Fetched {
  readonly status: number
  readonly body: Buffer
  readonly contentType: string | undefined
  readonly etag: string | undefined
}

interface Remote {
  readonly id: string
  readonly url?: string
  readonly headers?: Readonly<Record<string, string>>
  readonly query?: Readonly<Record<string, string>>
  readonly timeoutMs?: number
  readonly maxBytes?: number
  readonly allowPrivateNetwork?: boolean
}

/**
 * GETs `url` (or the bytes offset..offset+length-1 of it) for a source through the proxy's rules:
 * only the host of the source's own `url`, its credentials, timeout and size cap, the shared cache
 * (served stale when the upstream fails) with concurrent identical requests coalesced. Records the
 * outcome in the source's health. Throws UpstreamFailure / MissingVariable.
 */
export async function fetchFor(
  ctx: KindContext,
  source: Remote,
  url: URL,
  range?: { offset: number; length: number },
): Promise<Fetched> {
  try {
    if (source.url === undefined) throw new UpstreamFailure(502, 'the source has no url')
    const allowedHost = filledUrl(source.url, ctx.env).host
    for (const [k, v] of Object.entries(source.query ?? {}))
      url.searchParams.set(k, fillEnv(v, ctx.env, false))
    const headers: Record<string, string> = Object.fromEntries(
      Object.entries(source.headers ?? {}).map(([k, v]) => [k, fillEnv(v, ctx.env, false)]),
    )
    if (range) headers.range = `bytes=${range.offset}-${range.offset + range.length - 1}`
    const key = `${source.id} ${url.href}${range ? ` ${headers.range}` : ''}`
    const { answer, cache } = await ctx.cache.get(key, async (conditional) => {
      const got = await fetchUpstream({
        url,
        allowedHost,
        headers: { ...headers, ...conditional },
        timeoutMs: source.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        maxBytes: source.maxBytes ?? DEFAULT_MAX_BYTES,
        allowPrivateNetwork: source.allowPrivateNetwork === true,
      })
      if (!range) return got
      // A part is cached like a whole answer; a server that ignores Range sends the whole file.
      if (got.status === 206) return { ...got, status: 200 }
      if (got.status === 200) {
        return { ...got, body: got.body.subarray(range.offset, range.offset + range.length) }
      }
      return got
    })
    if (cache === 'stale') ctx.health.failed(source.id, 'the upstream does not answer; cached data is served')
    else if (answer.status >= 500) ctx.health.failed(source.id, `upstream answered HTTP ${answer.status}`)
    else ctx.health.succeeded(source.id)
    return { status: answer.status, body: answer.body, contentType: answer.contentType, etag: answer.etag }
  } catch (e) {
    ctx.health.failed(source.id, e instanceof Error ? e.message : String(e))
    throw e
  }
}

/** The 502/504 JSON answer for a failed archive request (never a 500). */
export function archiveError(
  request: FastifyRequest,
  reply: FastifyReply,
  source: { readonly id: string },
  e: unknown,
): FastifyReply {
  const status = e instanceof UpstreamFailure ? e.statusCode : 502
  const message =
    e instanceof UpstreamFailure || e instanceof MissingVariable
      ? e.message
      : `the source could not be read: ${e instanceof Error ? e.message : String(e)}`
  if (!(e instanceof UpstreamFailure || e instanceof MissingVariable)) {
    request.log.warn({ err: e, source: source.id }, 'archive source failed')
  }
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .send({ error: errorCodeOf(status), source: source.id, message })
}
