import type { ArcgisTokenExchange } from '../../../shared/config'
import { fetchUpstream, UpstreamFailure } from '../fetchUpstream'
import { fillEnv } from '../upstreamUrl'
import { Memo } from './upstreamDocument'

/**
 * An ArcGIS source that may need a token (arcgis-mapserver, arcgis-featureserver): a static `token`
 * or a `tokenExchange` (generateToken with a username and password), both kept on our server.
 */
export interface ArcgisSecured {
  readonly id: string
  readonly url: string
  readonly token?: string
  readonly tokenExchange?: ArcgisTokenExchange
  readonly headers?: Readonly<Record<string, string>>
  readonly timeoutMs?: number
  readonly allowPrivateNetwork?: boolean
}

/** ArcGIS's answer to a refused token: HTTP 498/499, or a JSON error with code 498/499. */
export function isTokenRefusal(answer: { status: number; body: Buffer }): boolean {
  if (answer.status === 498 || answer.status === 499) return true
  if (answer.body.length > 2000 || answer.body[0] !== 0x7b) return false
  try {
    const code = (JSON.parse(answer.body.toString('utf8')) as { error?: { code?: unknown } }).error?.code
    return code === 498 || code === 499
  } catch {
    return false
  }
}

/** Tokens from generateToken, per source, kept until a minute before they expire. */
const tokens = new Memo<{ token: string; expires: number }>(86_400_000, 30_000)

/** The source's token: the static one, a fresh/cached generateToken one, or none. */
export async function arcgisToken(source: ArcgisSecured, env: NodeJS.ProcessEnv): Promise<string | null> {
  if (source.token !== undefined) return fillEnv(source.token, env, false)
  const ex = source.tokenExchange
  if (!ex) return null
  const key = source.id
  const got = await tokens.get(key, async () => {
    const url = new URL(fillEnv(ex.url, env, true))
    const serviceHost = new URL(fillEnv(source.url, env, true)).host
    if (url.host !== serviceHost)
      throw new UpstreamFailure(502, `generateToken host ${url.host} is not the service's host`)
    const headers = Object.fromEntries(
      Object.entries(source.headers ?? {}).map(([k, v]) => [k, fillEnv(v, env, false)]),
    )
    const answer = await fetchUpstream({
      url,
      allowedHost: url.host,
      headers,
      timeoutMs: source.timeoutMs ?? 10_000,
      maxBytes: 100_000,
      allowPrivateNetwork: source.allowPrivateNetwork === true,
      form: {
        username: fillEnv(ex.username, env, false),
        password: fillEnv(ex.password, env, false),
        client: 'requestip',
        expiration: String(ex.expirationMinutes ?? 60),
        f: 'json',
      },
    })
    let body: { token?: unknown; expires?: unknown; error?: { message?: string } }
    try {
      body = JSON.parse(answer.body.toString('utf8')) as typeof body
    } catch {
      throw new UpstreamFailure(502, `generateToken answered HTTP ${answer.status}, not JSON`)
    }
    if (typeof body.token !== 'string')
      throw new UpstreamFailure(
        502,
        `generateToken refused: ${String(body.error?.message ?? 'no token in the answer').slice(0, 200)}`,
      )
    const expires =
      typeof body.expires === 'number' ? body.expires : Date.now() + (ex.expirationMinutes ?? 60) * 60_000
    return { token: body.token, expires }
  })
  if (got.expires - 60_000 <= Date.now()) {
    tokens.drop(key)
    return arcgisToken(source, env)
  }
  return got.token
}

/** Forgets the source's exchanged token (the server answered 498/499): the next request gets a new one. */
export function dropArcgisToken(source: { readonly id: string }): void {
  tokens.drop(source.id)
}

/** The URL with the source's token (when it has one) set as `token`. */
export async function withArcgisToken(url: URL, source: ArcgisSecured, env: NodeJS.ProcessEnv): Promise<URL> {
  const token = await arcgisToken(source, env)
  if (token !== null) url.searchParams.set('token', token)
  return url
}
