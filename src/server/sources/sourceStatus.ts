import type { FastifyInstance } from 'fastify'
import { noQuery } from '../http/schemas'
import { filledUrl } from './kinds/archive'
import type { SourceHealth, SourceState } from './sourceHealth'

/** An external source as the status route lists it: its kind and where it is read, never credentials. */
export interface SourceStatus extends SourceState {
  readonly kind: string
  /** The upstream host (host:port) — no path, query or user info; null when read from a file or unset. */
  readonly host: string | null
  /**
   * False while a `${NAME}` placeholder of the source's `url` (or `file`) is unset on the server: the
   * source is switched off, and the app hides the layers drawn from it (docs/external-layers.md).
   */
  readonly configured: boolean
}

interface Listed {
  readonly id: string
  readonly type: string
  readonly url?: string
  readonly file?: string
}

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g

/** Whether every `${NAME}` of the source's url / file is set (non-empty) in `env`. */
export function isConfigured(source: Listed, env: NodeJS.ProcessEnv): boolean {
  const text = `${source.url ?? ''} ${source.file ?? ''}`
  return [...text.matchAll(PLACEHOLDER)].every(([, name]) => (env[name!] ?? '') !== '')
}

function hostOf(source: Listed, env: NodeJS.ProcessEnv): string | null {
  if (source.url === undefined) return null
  try {
    return filledUrl(source.url, env).host
  } catch {
    return null
  }
}

/**
 * `GET /api/sources/status`: every external source's kind, host and last known state (ok,
 * unavailable with the reason, or unknown before its first request) and whether it is configured
 * (its url's `${NAME}` set); a source not heard from lately is probed first. The map polls it to show a
 * source as unavailable and to clear that when the upstream answers again. Session check.
 */
export function sourceStatusRoute(
  app: FastifyInstance,
  health: SourceHealth,
  sources: readonly Listed[],
  env: NodeJS.ProcessEnv,
  probes: ReadonlyMap<string, () => Promise<unknown>> = new Map(),
  probeAfterMs = 15_000,
): void {
  const lastProbe = new Map<string, number>()
  app.get(
    '/api/sources/status',
    { schema: { querystring: noQuery }, logLevel: 'warn' },
    async (_request, reply) => {
      // A source not heard from for probeAfterMs is asked again (at most once per probeAfterMs,
      // however many clients poll): an upstream that stopped is noticed, one that came back clears.
      const now = Date.now()
      await Promise.all(
        [...probes].map(async ([id, probe]) => {
          const s = health.state(id)
          const heard = Math.max(Date.parse(s.lastSuccess ?? '') || 0, Date.parse(s.lastFailure ?? '') || 0)
          if (now - heard < probeAfterMs || now - (lastProbe.get(id) ?? 0) < probeAfterMs) return
          lastProbe.set(id, now)
          await probe().catch(() => undefined)
        }),
      )
      const list: SourceStatus[] = sources.map((s) => ({
        ...health.state(s.id),
        kind: s.type,
        host: hostOf(s, env),
        configured: isConfigured(s, env),
      }))
      return reply.header('Cache-Control', 'no-store').send({ sources: list })
    },
  )
}
