import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import sessionPlugin from '../auth/sessionPlugin'
import { installErrorHandler } from '../http/errorHandler'
import type { SessionVerifier } from '../auth/sessionVerifier'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from '../store/pg/accounts/testing/bothAccountStores'
import { preferencesRoutes } from './preferencesRoutes'

const tokens: Record<string, string> = { 'token-ann': 'member-ann', 'token-bob': 'member-bob' }
const verifier: SessionVerifier = {
  async verify(credential) {
    const memberId = tokens[credential]
    if (!memberId) return null
    return {
      memberId,
      sessionId: `s-${memberId}`,
      organizationId: 'org',
      roles: [],
      expiresAt: new Date(Date.now() + 60_000),
    }
  },
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` })

// The same assertions over the SQLite and the PostgreSQL preferences store (issue #19).
describe.each(ACCOUNT_STORE_KINDS)('GET/PUT /api/me/preferences (%s)', (kind) => {
  const t = accountStoresFor(kind)
  let app: FastifyInstance

  beforeEach(async () => {
    app = Fastify()
    await app.register(sessionPlugin, {
      verifier,
      cookieName: 'stytch_session',
      rbac: { resources: [], roles: [] },
    })
    installErrorHandler(app)
    await app.register(preferencesRoutes, { store: t.stores.preferences, now: () => 1000 })
  })

  afterEach(async () => {
    await app.close()
  })

  it('requires a session', async () => {
    for (const method of ['GET', 'PUT'] as const) {
      const none = await app.inject({
        method,
        url: '/api/me/preferences',
        payload: method === 'PUT' ? {} : undefined,
      })
      expect(none.statusCode).toBe(401)
      expect(none.json()).toMatchObject({ error: 'unauthorized' })
      const bad = await app.inject({ method, url: '/api/me/preferences', headers: auth('forged') })
      expect(bad.statusCode).toBe(401)
    }
  })

  it('answers the configured defaults for a member who saved nothing', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/me/preferences',
      headers: auth('token-ann'),
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ preferences: { timeZoneDisplay: 'local', distanceUnits: 'mi' } })
  })

  it('stores a partial update per member', async () => {
    const put = await app.inject({
      method: 'PUT',
      url: '/api/me/preferences',
      headers: auth('token-ann'),
      payload: { distanceUnits: 'km' },
    })
    expect(put.statusCode).toBe(200)
    expect(put.json()).toEqual({ preferences: { timeZoneDisplay: 'local', distanceUnits: 'km' } })
    await app.inject({
      method: 'PUT',
      url: '/api/me/preferences',
      headers: auth('token-ann'),
      payload: { timeZoneDisplay: 'UTC' },
    })

    const ann = await app.inject({ method: 'GET', url: '/api/me/preferences', headers: auth('token-ann') })
    expect(ann.json()).toEqual({ preferences: { timeZoneDisplay: 'UTC', distanceUnits: 'km' } })
    const bob = await app.inject({ method: 'GET', url: '/api/me/preferences', headers: auth('token-bob') })
    expect(bob.json()).toEqual({ preferences: { timeZoneDisplay: 'local', distanceUnits: 'mi' } })
  })

  it('rejects unknown preferences and values with 400 naming the parameter, storing nothing', async () => {
    const cases: [unknown, string][] = [
      [{ distanceUnits: 'furlongs' }, 'distanceUnits'],
      [{ colour: 'red' }, 'colour'],
      [{ timeZoneDisplay: 7 }, 'timeZoneDisplay'],
      [['distanceUnits'], 'body'],
    ]
    for (const [payload, parameter] of cases) {
      const response = await app.inject({
        method: 'PUT',
        url: '/api/me/preferences',
        headers: { ...auth('token-ann'), 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ error: 'bad_request', parameter })
    }
    expect(await t.stores.preferences.read('member-ann')).toBeNull()
  })
})
