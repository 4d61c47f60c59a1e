import { createLocalJWKSet, jwtVerify } from 'jose'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBundledVerifier } from '../../src/server/identity/bundledVerifier'
import {
  identityTestApp,
  signInThroughRoutes,
  TEST_PASSWORD,
  type IdentityTestApp,
} from '../../src/server/identity/testing/identityTestApp'

let t: IdentityTestApp

beforeEach(async () => {
  t = await identityTestApp()
})
afterEach(async () => t.close())

function sdk(method: 'GET' | 'POST', url: string, secret?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url: `/sdk/v1${url}`,
    headers: { authorization: t.basic(secret), 'content-type': 'application/json' },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  })
}
function api(method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) {
  return t.app.inject({
    method,
    url,
    headers: token ? { authorization: `Bearer ${token}` } : {},
    payload: payload as Record<string, string> | undefined,
  })
}
const errorType = (res: { json(): unknown }) => (res.json() as { error_type: string }).error_type
type SessionData = {
  data: { member_session: { member_session_id: string; expires_at: string }; session_jwt: string }
}

describe('sessions/authenticate', () => {
  it('answers 401 unauthorized_credentials when there is no session (public:public, unknown token)', async () => {
    for (const secret of [undefined, 'no-such-session-token-00000000000']) {
      const res = await sdk('POST', '/b2b/sessions/authenticate', secret)
      expect(res.statusCode).toBe(401)
      expect(errorType(res)).toBe('unauthorized_credentials')
    }
  })

  it('refreshes a live session with the same id and extends it on request', async () => {
    const s = await signInThroughRoutes(t)
    t.clock.now += 60_000
    const plain = await sdk('POST', '/b2b/sessions/authenticate', s.session_token, {})
    expect(plain.statusCode).toBe(200)
    const a = (plain.json() as SessionData).data
    expect(a.member_session.member_session_id).toBe(s.member_session.member_session_id)
    expect(a.member_session.expires_at).toBe(s.member_session.expires_at)
    const extended = await sdk('POST', '/b2b/sessions/authenticate', s.session_token, {
      session_duration_minutes: 60,
    })
    const b = (extended.json() as SessionData).data
    expect(Date.parse(b.member_session.expires_at)).toBe(t.clock.now + 60 * 60_000)
    const capped = await sdk('POST', '/b2b/sessions/authenticate', s.session_token, {
      session_duration_minutes: 527040,
    })
    const c = (capped.json() as SessionData).data
    // Never past its start + the sign-in length (1440 minutes), however much is asked.
    expect(Date.parse(c.member_session.expires_at)).toBe(
      Date.parse(s.member_session.started_at) + 1440 * 60_000,
    )
    const { payload } = await jwtVerify(b.session_jwt, createLocalJWKSet(t.ctx.key.jwks), {
      currentDate: new Date(t.clock.now),
    })
    expect(payload.exp).toBe(Math.floor((t.clock.now + t.ctx.settings.jwtMinutes * 60_000) / 1000))
  })

  it('refuses an expired session and a disabled member', async () => {
    const s = await signInThroughRoutes(t)
    await t.ctx.members.updateMember(t.memberId, { status: 'inactive' }, t.clock.now)
    expect(errorType(await sdk('POST', '/b2b/sessions/authenticate', s.session_token))).toBe(
      'unauthorized_credentials',
    )
    await t.ctx.members.updateMember(t.memberId, { status: 'active' }, t.clock.now)
    t.clock.now += 1440 * 60_000 + 1
    expect(errorType(await sdk('POST', '/b2b/sessions/authenticate', s.session_token))).toBe(
      'unauthorized_credentials',
    )
  })
})

describe('sessions/revoke and the member endpoints', () => {
  it('revokes (no body), after which the token is dead everywhere', async () => {
    const s = await signInThroughRoutes(t)
    expect((await sdk('GET', '/b2b/organizations/members/me', s.session_token)).statusCode).toBe(200)
    const res = await t.app.inject({
      method: 'POST',
      url: '/sdk/v1/b2b/sessions/revoke',
      headers: { authorization: t.basic(s.session_token), 'content-type': 'application/json' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ data: { status_code: 200 } })
    expect(errorType(await sdk('POST', '/b2b/sessions/authenticate', s.session_token))).toBe(
      'unauthorized_credentials',
    )
    expect(errorType(await sdk('POST', '/b2b/sessions/revoke', s.session_token))).toBe(
      'unauthorized_credentials',
    )
    expect(errorType(await sdk('GET', '/b2b/organizations/members/me', s.session_token))).toBe(
      'unauthorized_credentials',
    )
    const verifier = createBundledVerifier(t.ctx)
    expect(await verifier.verify(s.session_token)).toBeNull()
    expect(await verifier.verify(s.session_jwt)).toBeNull()
    expect((await t.ctx.members.auditLog()).map((e) => e.event)).toContain('session.revoked')
  })

  it('answers members/me and organizations/me for a session', async () => {
    const s = await signInThroughRoutes(t)
    const me = (await sdk('GET', '/b2b/organizations/members/me', s.session_token)).json() as {
      data: { member: { email_address: string; roles: { role_id: string }[] } }
    }
    expect(me.data.member.email_address).toBe(t.email)
    expect(JSON.stringify(me)).not.toMatch(/scrypt|password_hash/)
    const org = (await sdk('GET', '/b2b/organizations/me', s.session_token)).json() as {
      data: { organization: { organization_id: string } }
    }
    expect(org.data.organization.organization_id).toBe(t.ctx.settings.organizationId)
    expect((await sdk('GET', '/b2b/organizations/me')).statusCode).toBe(401)
  })
})

describe('JWKS', () => {
  it('publishes the public key (no private parts) at the documented paths', async () => {
    const paths = [
      '/.well-known/jwks.json',
      `/v1/b2b/sessions/jwks/${t.ctx.settings.projectId}`,
      `/sdk/v1/b2b/sessions/jwks/${t.ctx.settings.projectId}`,
    ]
    for (const url of paths) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode).toBe(200)
      const { keys } = res.json() as { keys: Record<string, string>[] }
      expect(keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' })
      expect(keys[0]).not.toHaveProperty('d')
    }
    expect(
      (await t.app.inject({ method: 'GET', url: '/v1/b2b/sessions/jwks/project-test-other' })).statusCode,
    ).toBe(404)
  })
})

describe('/api/me', () => {
  it('needs a session', async () => {
    for (const res of [
      await api('GET', '/api/me'),
      await api('GET', '/api/me', 'bogus-token-bogus-token-bogus'),
    ]) {
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject({ error: 'unauthorized' })
    }
  })

  it('returns the member, roles, permissions and session expiry', async () => {
    const s = await signInThroughRoutes(t)
    const res = await api('GET', '/api/me', s.session_token)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      member: { member_id: t.memberId, email_address: t.email },
      roles: ['stytch_member'],
      permissions: { data: ['read'] },
      session: {
        member_session_id: s.member_session.member_session_id,
        expires_at: s.member_session.expires_at,
      },
    })
  })

  it('changes the password: checks the old one and the rules, keeps this session, ends the others', async () => {
    const current = await signInThroughRoutes(t)
    const other = await signInThroughRoutes(t)
    const wrong = await api('POST', '/api/me/password', current.session_token, {
      old: 'nope',
      new: 'A-long-new-passphrase',
    })
    expect(wrong.statusCode).toBe(400)
    expect(wrong.json()).toMatchObject({ error: 'bad_request', parameter: 'old' })
    const weak = await api('POST', '/api/me/password', current.session_token, {
      old: TEST_PASSWORD,
      new: 'short',
    })
    expect(weak.json()).toMatchObject({ error: 'bad_request', parameter: 'new' })
    const missing = await api('POST', '/api/me/password', current.session_token, { old: TEST_PASSWORD })
    expect(missing.json()).toMatchObject({ error: 'bad_request', parameter: 'new' })
    const ok = await api('POST', '/api/me/password', current.session_token, {
      old: TEST_PASSWORD,
      new: 'A-long-new-passphrase',
    })
    expect(ok.json()).toEqual({ ok: true, revoked_sessions: 1 })
    expect((await api('GET', '/api/me', current.session_token)).statusCode).toBe(200)
    expect((await api('GET', '/api/me', other.session_token)).statusCode).toBe(401)
    const login = await sdk('POST', '/b2b/passwords/authenticate', undefined, {
      organization_id: t.ctx.settings.organizationId,
      email_address: t.email,
      password: 'A-long-new-passphrase',
    })
    expect(login.statusCode).toBe(200)
  })

  it('signs out of all sessions, the calling one included', async () => {
    const a = await signInThroughRoutes(t)
    const b = await signInThroughRoutes(t)
    // authFetch always sends a JSON content type, also with no body.
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/me/sessions/revoke-all',
      headers: { authorization: `Bearer ${a.session_token}`, 'content-type': 'application/json' },
    })
    expect(res.json()).toEqual({ ok: true, revoked_sessions: 2 })
    expect((await api('GET', '/api/me', a.session_token)).statusCode).toBe(401)
    expect((await api('GET', '/api/me', b.session_jwt)).statusCode).toBe(401)
  })
})
