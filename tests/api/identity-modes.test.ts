import Database from 'better-sqlite3'
import Fastify from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { createIdentity } from '../../src/server/identity/createIdentity'
import { identityPlugin } from '../../src/server/identity/identityPlugin'
import {
  identityTestApp,
  TEST_PASSWORD,
  type IdentityTestApp,
} from '../../src/server/identity/testing/identityTestApp'
import { ACCOUNTS_MIGRATIONS_DIR } from '../../src/server/store/accountsDb'
import { migrate } from '../../src/server/store/migrate'

describe('edge paths of the bundled provider', () => {
  let t: IdentityTestApp
  beforeEach(async () => {
    t = await identityTestApp({ env: { EMBERLINE_SMS_WEBHOOK_URL: 'http://127.0.0.1:9/unreachable' } })
  })
  afterEach(async () => t.close())

  const post = (url: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: `/sdk/v1${url}`,
      headers: { authorization: t.basic(), 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    })
  const login = () =>
    post('/b2b/passwords/authenticate', {
      organization_id: t.ctx.settings.organizationId,
      email_address: t.email,
      password: TEST_PASSWORD,
    })

  it('sends no code to a member with no phone until one is named for enrolment', async () => {
    await t.ctx.members.updateMember(t.memberId, { phone: null }, t.clock.now)
    const res = await login()
    expect(res.statusCode).toBe(200)
    const data = (res.json() as { data: { intermediate_session_token: string; member_session: null } }).data
    expect(data.member_session).toBeNull()
    const send = await post('/b2b/otps/sms/send', {
      organization_id: t.ctx.settings.organizationId,
      member_id: t.memberId,
      intermediate_session_token: data.intermediate_session_token,
    })
    expect(send.statusCode).toBe(403)
    expect(send.json()).toMatchObject({ error_type: 'sms_mfa_not_enrolled' })
  })

  it('answers 502 in the Stytch shape when the SMS gateway fails', async () => {
    const ist = (await login()).json() as { data: { intermediate_session_token: string } }
    const res = await post('/b2b/otps/sms/send', {
      organization_id: t.ctx.settings.organizationId,
      member_id: t.memberId,
      intermediate_session_token: ist.data.intermediate_session_token,
    })
    expect(res.statusCode).toBe(502)
    expect(res.json()).toMatchObject({ status_code: 502, error_type: 'delivery_failed' })
  })

  it('checks password strength with the same rules as resets', async () => {
    const weak = await post('/b2b/passwords/strength_check', { password: 'short' })
    expect(weak.json()).toMatchObject({ data: { valid_password: false } })
    const strong = await post('/b2b/passwords/strength_check', { password: 'A-long-new-passphrase' })
    expect(strong.json()).toMatchObject({ data: { valid_password: true } })
  })
})

describe('hosted mode', () => {
  let db: Database.Database
  beforeEach(() => {
    db = new Database(':memory:')
    migrate(db, ACCOUNTS_MIGRATIONS_DIR)
  })
  afterEach(() => db.close())

  it('needs a JWKS URL', async () => {
    await expect(
      createIdentity({ db, dataDir: '/tmp/none', env: { EMBERLINE_IDP: 'hosted' } }),
    ).rejects.toThrow(/EMBERLINE_JWKS_URL/)
  })

  it('serves no SDK routes and answers /api/me from the verified session', async () => {
    const identity = await createIdentity({
      db,
      dataDir: '/tmp/none',
      env: { EMBERLINE_IDP: 'hosted', EMBERLINE_JWKS_URL: 'https://stytch.invalid/jwks' },
    })
    expect(identity).toMatchObject({ mode: 'hosted', ctx: null })
    const verifier: SessionVerifier = {
      verify: async (c) =>
        c === 'good'
          ? {
              memberId: 'm',
              sessionId: 's',
              organizationId: 'o',
              roles: ['stytch_member'],
              expiresAt: new Date(0),
            }
          : null,
    }
    const app = Fastify()
    await app.register(identityPlugin, { identity, verifier })
    const headers = { authorization: 'Bearer good' }
    expect((await app.inject({ method: 'GET', url: '/sdk/v1/projects/bootstrap/x' })).statusCode).toBe(404)
    expect((await app.inject({ method: 'GET', url: '/api/me', headers })).json()).toMatchObject({
      member: { member_id: 'm' },
      roles: ['stytch_member'],
    })
    const change = await app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers,
      payload: { old: 'a', new: 'b' },
    })
    expect(change.statusCode).toBe(409)
    await app.close()
  })
})
