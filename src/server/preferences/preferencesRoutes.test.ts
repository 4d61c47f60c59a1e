import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import sessionPlugin from '../auth/sessionPlugin'
import { installErrorHandler } from '../http/errorHandler'
import type { SessionVerifier } from '../auth/sessionVerifier'
import { ACCOUNTS_MIGRATIONS_DIR } from '../store/accountsDb'
import { createPreferencesStore } from '../store/preferencesStore'
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

let app: FastifyInstance
let db: Database.Database

beforeEach(async () => {
  db = new Database(':memory:')
  db.exec(fs.readFileSync(path.join(ACCOUNTS_MIGRATIONS_DIR, '060_member_preferences.sql'), 'utf8'))
  app = Fastify()
  await app.register(sessionPlugin, {
    verifier,
    cookieName: 'stytch_session',
    rbac: { resources: [], roles: [] },
  })
  installErrorHandler(app)
  await app.register(preferencesRoutes, { store: createPreferencesStore(db), now: () => 1000 })
})

afterEach(async () => {
  await app.close()
  db.close()
})

const auth = (token: string) => ({ authorization: `Bearer ${token}` })

describe('GET/PUT /api/me/preferences', () => {
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
    expect(createPreferencesStore(db).read('member-ann')).toBeNull()
  })
})
