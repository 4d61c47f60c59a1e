import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { decodeJwt, decodeProtectedHeader } from 'jose'
import {
  identityTestApp,
  signInThroughRoutes,
  TEST_PASSWORD,
  TEST_PHONE,
  type IdentityTestApp,
} from '../../src/server/identity/testing/identityTestApp'

let t: IdentityTestApp
let org: string
const json = 'application/json'

beforeEach(async () => {
  t = await identityTestApp()
  org = t.ctx.settings.organizationId
})
afterEach(async () => t.close())

function post(url: string, payload: unknown, secret?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/sdk/v1${url}`,
    headers: { authorization: t.basic(secret), 'content-type': json },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  })
}

function expectStytchError(res: { statusCode: number; json(): unknown }, status: number, type: string) {
  expect(res.statusCode).toBe(status)
  const body = res.json() as Record<string, unknown>
  expect(body).toMatchObject({ status_code: status, error_type: type })
  expect(body.error_message).toEqual(expect.any(String))
  expect(body.error_url).toBe(`https://stytch.com/docs/api/errors/${status}#${type}`)
  expect(body.request_id).toMatch(/^request-id-/)
  expect(body).not.toHaveProperty('data')
  expect(body).not.toHaveProperty('body')
}

async function login(password = TEST_PASSWORD) {
  return post('/b2b/passwords/authenticate', {
    organization_id: org,
    email_address: t.email,
    password,
    session_duration_minutes: 1440,
  })
}

describe('bootstrap and telemetry', () => {
  it('answers bootstrap wrapped in data with captcha and DFP off and password_config present', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/sdk/v1/projects/bootstrap/${t.ctx.settings.publicToken}`,
      headers: { authorization: t.basic(), 'content-type': json },
    })
    expect(res.statusCode).toBe(200)
    const { data } = res.json() as { data: Record<string, unknown> }
    expect(data.captcha_settings).toEqual({ enabled: false })
    expect(data.dfp_protected_auth_enabled).toBe(false)
    expect(data).toHaveProperty('password_config', null)
    expect(data.vertical).toBe('B2B')
    expect((data.rbac_policy as { roles: { role_id: string }[] }).roles.map((r) => r.role_id)).toContain(
      'stytch_member',
    )
  })

  it('refuses bootstrap for another public token', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/sdk/v1/projects/bootstrap/public-token-test-nope',
    })
    expectStytchError(res, 404, 'public_token_not_found')
  })

  it('accepts and drops telemetry events', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/sdk/v1/events',
      headers: { 'content-type': json },
      payload: '[{"event":{}}]',
    })
    expect(res.statusCode).toBe(200)
  })

  it('answers unknown SDK routes with route_not_found', async () => {
    expectStytchError(await post('/b2b/nothing', {}), 404, 'route_not_found')
  })
})

describe('password → SMS → session', () => {
  it('returns an intermediate session (no member_session) for the right password', async () => {
    const res = await login()
    expect(res.statusCode).toBe(200)
    const { data } = res.json() as { data: Record<string, unknown> }
    expect(data.member_session).toBeNull()
    expect(data.session_token).toBe('')
    expect(data.intermediate_session_token).toEqual(expect.any(String))
    expect((data.intermediate_session_token as string).length).toBeGreaterThan(30)
    expect(data.member_id).toBe(t.memberId)
    expect(data.mfa_required).toMatchObject({ member_options: { mfa_phone_number: TEST_PHONE } })
    expect(JSON.stringify(data)).not.toContain('scrypt')
  })

  it('signs in with the SMS code from the outbox and returns a full session', async () => {
    const data = await signInThroughRoutes(t)
    expect(data.session_token.length).toBeGreaterThan(30)
    const claims = decodeJwt(data.session_jwt)
    expect(decodeProtectedHeader(data.session_jwt)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    expect(claims.sub).toBe(t.memberId)
    expect(claims.iss).toBe(`stytch.com/${t.ctx.settings.projectId}`)
    expect(Date.parse(data.member_session.expires_at) - t.clock.now).toBe(1440 * 60_000)
    const sms = t.outbox('sms')
    expect(sms).toHaveLength(1)
    expect(sms[0]).toMatchObject({ channel: 'sms', to: TEST_PHONE, memberId: t.memberId })
    expect(sms[0]?.code).toMatch(/^\d{6}$/)
    expect(sms[0]?.text).toContain(sms[0]?.code)
  })

  it('stores session tokens only as hashes', async () => {
    const data = await signInThroughRoutes(t)
    const dump = JSON.stringify(await t.rows('identity_sessions'))
    expect(dump).not.toContain(data.session_token)
    const codes = JSON.stringify(await t.rows('identity_otp_codes'))
    expect(codes).not.toContain(t.outbox('sms')[0]?.code ?? 'x')
  })
})

describe('generic answers', () => {
  it('answers an unknown e-mail exactly like a wrong password', async () => {
    const wrong = await login('wrong password!')
    const unknown = await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: 'nobody@emberline.test',
      password: 'whatever password',
    })
    expectStytchError(wrong, 401, 'unauthorized_credentials')
    expectStytchError(unknown, 401, 'unauthorized_credentials')
    const strip = (r: typeof wrong) => ({ ...(r.json() as object), request_id: '' })
    expect(strip(unknown)).toEqual(strip(wrong))
  })

  it('refuses a disabled member with the same generic answer', async () => {
    await t.ctx.members.updateMember(t.memberId, { status: 'inactive' }, t.clock.now)
    expectStytchError(await login(), 401, 'unauthorized_credentials')
  })

  it('refuses another organization', async () => {
    const res = await post('/b2b/passwords/authenticate', {
      organization_id: 'organization-test-other',
      email_address: t.email,
      password: TEST_PASSWORD,
    })
    expectStytchError(res, 404, 'organization_not_found')
  })

  it('refuses a request without this project public token', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/sdk/v1/b2b/passwords/authenticate',
      headers: { 'content-type': json },
      payload: { organization_id: org, email_address: t.email, password: TEST_PASSWORD },
    })
    expectStytchError(res, 401, 'unauthorized_credentials')
  })

  it('tolerates a stale session token as the Basic secret on login', async () => {
    const res = await post(
      '/b2b/passwords/authenticate',
      { organization_id: org, email_address: t.email, password: TEST_PASSWORD },
      'stale-session-token-from-an-old-cookie',
    )
    expect(res.statusCode).toBe(200)
  })

  it('answers bad input with 400 in the Stytch shape', async () => {
    expectStytchError(
      await post('/b2b/passwords/authenticate', { organization_id: org }),
      400,
      'invalid_request',
    )
    const badJson = await t.app.inject({
      method: 'POST',
      url: '/sdk/v1/b2b/passwords/authenticate',
      headers: { authorization: t.basic(), 'content-type': json },
      payload: '{not json',
    })
    expectStytchError(badJson, 400, 'invalid_request')
    const res = await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: t.email,
      password: TEST_PASSWORD,
      session_duration_minutes: 'forever',
    })
    expectStytchError(res, 400, 'invalid_request')
    expect((res.json() as { error_details: { parameter: string } }).error_details.parameter).toBe(
      'session_duration_minutes',
    )
  })
})
