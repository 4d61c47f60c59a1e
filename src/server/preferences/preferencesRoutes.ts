import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  resolvePreferences,
  validatePreferencesPatch,
  type MemberPreferences,
  type PreferenceDefinition,
} from '../../shared/preferences'
import type { SessionVerifier, VerifiedSession } from '../auth/sessionVerifier'
import { badRequest, unauthorized } from '../data/httpErrors'
import { createPreferencesStore, type PreferencesStore } from '../store/preferencesStore'

export interface PreferencesRoutesOptions {
  /** Defaults to the member_preferences table of `app.store.db`. */
  store?: PreferencesStore
  /** Defaults to the app's session verifier (`app.sessionAuth.verifier`) at request time. */
  verifier?: SessionVerifier
  /** Defaults to appConfig.preferences. */
  definitions?: readonly PreferenceDefinition[]
  now?: () => number
}

function bearer(request: FastifyRequest): string | null {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null
}

/**
 * GET/PUT /api/me/preferences: the signed-in member's display preferences (appConfig.preferences).
 * PUT takes a partial object and answers with the full set. A session is required on both. The
 * body is checked against the configured options in the handler (the allowed values are config).
 */
export async function preferencesRoutes(app: FastifyInstance, opts: PreferencesRoutesOptions): Promise<void> {
  const store = opts.store ?? createPreferencesStore(app.store.db)
  const now = opts.now ?? Date.now

  async function session(request: FastifyRequest): Promise<VerifiedSession | null> {
    const token = bearer(request)
    const verifier = opts.verifier ?? app.sessionAuth.verifier
    return token && verifier ? verifier.verify(token) : null
  }

  function current(memberId: string): MemberPreferences {
    return resolvePreferences(store.read(memberId), opts.definitions)
  }

  app.get('/api/me/preferences', async (request, reply: FastifyReply) => {
    const s = await session(request)
    if (!s) return unauthorized(reply, 'a valid session is required (Authorization: Bearer <token>)')
    reply.header('cache-control', 'no-store')
    return { preferences: current(s.memberId) }
  })

  app.put('/api/me/preferences', async (request, reply) => {
    const s = await session(request)
    if (!s) return unauthorized(reply, 'a valid session is required (Authorization: Bearer <token>)')
    const checked = validatePreferencesPatch(request.body, opts.definitions)
    if (!checked.ok) return badRequest(reply, checked.parameter, checked.message)
    const next = { ...current(s.memberId), ...checked.patch }
    store.write(s.memberId, next, now())
    reply.header('cache-control', 'no-store')
    return { preferences: next }
  })
}
