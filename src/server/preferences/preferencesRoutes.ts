import type { FastifyInstance, FastifyReply } from 'fastify'
import {
  resolvePreferences,
  validatePreferencesPatch,
  type MemberPreferences,
  type PreferenceDefinition,
} from '../../shared/preferences'
import { sessionOf } from '../auth/routeAuth'
import { badRequest } from '../http/httpErrors'
import { createPreferencesStore, type PreferencesStore } from '../store/preferencesStore'

export interface PreferencesRoutesOptions {
  /** Defaults to the member_preferences table of the accounts database (`app.store.accounts`). */
  store?: PreferencesStore
  /** Defaults to appConfig.preferences. */
  definitions?: readonly PreferenceDefinition[]
  now?: () => number
}

/**
 * GET/PUT /api/me/preferences: the signed-in member's display preferences (appConfig.preferences).
 * PUT takes a partial object and answers with the full set. A session is required on both. The
 * body is checked against the configured options in the handler (the allowed values are config).
 * The app's route check (default deny) has verified the session before the handler runs.
 */
export async function preferencesRoutes(app: FastifyInstance, opts: PreferencesRoutesOptions): Promise<void> {
  const store = opts.store ?? createPreferencesStore(app.store.accounts)
  const now = opts.now ?? Date.now

  function current(memberId: string): MemberPreferences {
    return resolvePreferences(store.read(memberId), opts.definitions)
  }

  app.get('/api/me/preferences', async (request, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store')
    return { preferences: current(sessionOf(request).memberId) }
  })

  app.put('/api/me/preferences', async (request, reply) => {
    const s = sessionOf(request)
    const checked = validatePreferencesPatch(request.body, opts.definitions)
    if (!checked.ok) return badRequest(reply, checked.parameter, checked.message)
    const next = { ...current(s.memberId), ...checked.patch }
    store.write(s.memberId, next, now())
    reply.header('cache-control', 'no-store')
    return { preferences: next }
  })
}
