import type { FastifyRequest } from 'fastify'
import { isLoopbackHost } from '../http/loopbackHost'

export interface Link {
  href: string
  rel: string
  type?: string
  title?: string
  templated?: boolean
}

export const GEOJSON = 'application/geo+json'
export const JSON_TYPE = 'application/json'
export const OPENAPI = 'application/vnd.oai.openapi+json;version=3.0'

/** Where links may point: from EMBERLINE_PUBLIC_URL, EMBERLINE_ALLOWED_HOSTS, HOST and PORT. */
export interface LinkSettings {
  /** EMBERLINE_PUBLIC_URL without a trailing slash, or null. */
  publicUrl: string | null
  /** Hosts (host[:port], lower case) whose own origin may be used without a public URL. */
  allowedHosts: readonly string[]
  /** The address the server listens on (`http://HOST:PORT`), or '' (relative links) for 0.0.0.0 / ::. */
  listenUrl: string
}

const WILDCARD = /^(0\.0\.0\.0|::|\[::\])?$/

/** The link settings of an environment (the same variables the reset and alert links read). */
export function linkSettings(env: Record<string, string | undefined>): LinkSettings {
  const host = env.HOST ?? '127.0.0.1'
  const port = env.PORT ?? '8080'
  return {
    publicUrl: env.EMBERLINE_PUBLIC_URL ? env.EMBERLINE_PUBLIC_URL.replace(/\/+$/, '') : null,
    allowedHosts: (env.EMBERLINE_ALLOWED_HOSTS ?? '')
      .split(/[\s,]+/)
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    listenUrl: WILDCARD.test(host) ? '' : `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
  }
}

/**
 * The base of links: EMBERLINE_PUBLIC_URL; else the origin the client used only when its host is
 * a loopback address or on EMBERLINE_ALLOWED_HOSTS; else the listen address. Never a Host (or,
 * behind a trusted proxy, X-Forwarded-Host) header a client chose: links built from it would send
 * a GIS client that follows them, with its session token, to any server.
 */
export function linkBase(protocol: string, host: string, settings: LinkSettings): string {
  if (settings.publicUrl) return settings.publicUrl
  const h = host.toLowerCase()
  if (isLoopbackHost(h) || settings.allowedHosts.includes(h)) return `${protocol}://${h}`
  return settings.listenUrl
}

let cached: { key: string; settings: LinkSettings } | null = null

/** The settings of process.env, parsed again only when a variable changed. */
function currentSettings(): LinkSettings {
  const env = process.env
  const key = [env.EMBERLINE_PUBLIC_URL, env.EMBERLINE_ALLOWED_HOSTS, env.HOST, env.PORT].join('\n')
  if (cached?.key !== key) cached = { key, settings: linkSettings(env) }
  return cached.settings
}

/** The base of this request's links (`https://host[:port]`, see linkBase): absolute, as desktop GIS clients expect. */
export function baseUrl(request: FastifyRequest): string {
  return linkBase(request.protocol, request.host, currentSettings())
}
