import type { FastifyInstance, FastifyReply } from 'fastify'
import {
  resolvePreferences,
  validatePreferencesPatch,
  type MemberPreferences,
  type PreferenceDefinition,
} from '../../shared/preferences'
import { appConfig } from '../../shared/config'
import { sessionOf } from '../auth/routeAuth'
import { badRequest } from '../http/httpErrors'
import type { PreferencesStore } from '../store/preferencesStore'

export interface PreferencesRoutesOptions {
  /** Defaults to the app's preferences store (`app.store.preferences`). */
  store?: PreferencesStore
  /** Defaults to appConfig.preferences. */
  definitions?: readonly PreferenceDefinition[]
  now?: () => number
}

/** PUT body: known preference ids only, each one of its configured option values. */
export function preferencesBody(definitions: readonly PreferenceDefinition[]) {
  return {
    type: 'object',
    ...(definitions.length > 0
      ? { propertyNames: { enum: definitions.map((d) => d.id) } }
      : { maxProperties: 0 }),
    properties: Object.fromEntries(
      definitions.map((d) => [d.id, { type: 'string', enum: d.options.map((o) => o.value) }]),
    ),
  }
}

/**
 * GET/PUT /api/me/preferences: the signed-in member's display preferences (appConfig.preferences).
 * PUT takes a partial object and answers with the full set. A session is required on both. The
 * body's JSON Schema is built from the configured options (preferencesBody); the handler checks it
 * again with the shared validator the browser uses.
 * The app's route check (default deny) has verified the session before the handler runs.
 */
export async function preferencesRoutes(app: FastifyInstance, opts: PreferencesRoutesOptions): Promise<void> {
  const store = opts.store ?? app.store.preferences
  const now = opts.now ?? Date.now

  async function current(memberId: string): Promise<MemberPreferences> {
    return resolvePreferences(await store.read(memberId), opts.definitions)
  }

  app.get('/api/me/preferences', async (request, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store')
    return { preferences: await current(sessionOf(request).memberId) }
  })

  const body = preferencesBody(opts.definitions ?? appConfig.preferences)
  app.put('/api/me/preferences', { schema: { body } }, async (request, reply) => {
    const s = sessionOf(request)
    const checked = validatePreferencesPatch(request.body, opts.definitions)
    if (!checked.ok) return badRequest(reply, checked.parameter, checked.message)
    const next = { ...(await current(s.memberId)), ...checked.patch }
    await store.write(s.memberId, next, now())
    reply.header('cache-control', 'no-store')
    return { preferences: next }
  })
}
