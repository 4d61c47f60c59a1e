import { afterEach, describe, expect, it } from 'vitest'
import { pkceChallenge } from '../../src/server/identity/crypto'
import { identitySettingsFrom } from '../../src/server/identity/settings'
import {
  identityTestApp,
  signInThroughRoutes,
  TEST_PASSWORD,
  type IdentityTestApp,
} from '../../src/server/identity/testing/identityTestApp'
import { appConfig } from '../../src/shared/config'

// What the attacker's corpus found in the identity provider (issue #29 item 6): correct sign-ins
// counted toward the lockout, control characters in member fields, reset e-mails a stranger could
// silence, and resets completed without the PKCE verifier.
let t: IdentityTestApp
afterEach(async () => t?.close())

const minutes = (n: number) => n * 60_000
const errorType = (res: { json(): unknown }) => (res.json() as { error_type: string }).error_type
const org = () => t.ctx.settings.organizationId

function post(url: string, payload: unknown, opts: { secret?: string; ip?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/sdk/v1${url}`,
    payload: payload as object,
    remoteAddress: opts.ip ?? '127.0.0.1',
    headers: { authorization: t.basic(opts.secret), 'content-type': 'application/json' },
  })
}

function passwordStep(opts: { password?: string; ip?: string } = {}) {
  return post(
    '/b2b/passwords/authenticate',
    { organization_id: org(), email_address: t.email, password: opts.password ?? TEST_PASSWORD },
    { ip: opts.ip },
  )
}

/** The settings of config/app.yaml with other throttle numbers. */
function throttled(throttle: { maxFailures: number; memberMaxFailures: number; ipMaxFailures?: number }) {
  return identitySettingsFrom(
    { ...appConfig.identity, throttle: { ...appConfig.identity.throttle, ...throttle } },
    appConfig.session,
  )
}

describe('sign-in lockout counts failures only', () => {
  it('lets 101 correct sign-ins from 10 addresses through (a shift sharing one account)', async () => {
    t = await identityTestApp()
    const { memberMaxFailures } = t.ctx.settings.throttle
    for (let i = 0; i < memberMaxFailures; i++) {
      const res = await passwordStep({ ip: `198.51.100.${i % 10}` })
      expect(res.statusCode, `sign-in ${i + 1}`).toBe(200)
    }
    expect((await passwordStep({ ip: '198.51.100.3' })).statusCode).toBe(200)
    t.clock.now += minutes(1)
    expect((await passwordStep({ ip: '198.51.100.4' })).statusCode).toBe(200)
  }, 180_000)

  it('does not lock a client that retries with the right password, nor count it toward the member', async () => {
    t = await identityTestApp({ settings: throttled({ maxFailures: 10, memberMaxFailures: 20 }) })
    const { memberMaxFailures } = t.ctx.settings.throttle
    // One short of the member-wide lock, from many addresses; then the member's right password.
    for (let i = 0; i < memberMaxFailures - 1; i++)
      expect((await passwordStep({ password: 'wrong-guess', ip: `10.1.${i % 200}.9` })).statusCode).toBe(401)
    for (let i = 0; i < 5; i++) expect((await passwordStep({ ip: '198.51.100.20' })).statusCode).toBe(200)
    // The wrong guesses still count: one more locks the member everywhere.
    expect((await passwordStep({ password: 'wrong-guess', ip: '10.2.0.1' })).statusCode).toBe(401)
    const locked = await passwordStep({ ip: '198.51.100.20' })
    expect(locked.statusCode).toBe(429)
    expect(errorType(locked)).toBe('too_many_requests')
  })

  it('counts neither a correct SMS code nor a correct current password toward a lockout', async () => {
    t = await identityTestApp({ settings: throttled({ maxFailures: 3, memberMaxFailures: 4 }) })
    // Full sign-ins (password + SMS code), each within the window and from one address.
    for (let i = 0; i < 6; i++) {
      const session = await signInThroughRoutes(t)
      expect(session.session_token, `sign-in ${i + 1}`).toEqual(expect.any(String))
      t.clock.now += minutes(1)
    }
    const session = await signInThroughRoutes(t)
    for (let i = 0; i < 6; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/me/password',
        headers: { authorization: `Bearer ${session.session_token}` },
        payload: { old: TEST_PASSWORD, new: 'x' },
      })
      // The current password is right; only the new one is refused.
      expect(res.json(), `change ${i + 1}`).toMatchObject({ parameter: 'new' })
    }
  })

  it('still locks after wrong passwords, even with correct ones in between', async () => {
    t = await identityTestApp({ settings: throttled({ maxFailures: 3, memberMaxFailures: 5 }) })
    for (let i = 0; i < 2; i++) {
      expect((await passwordStep({ password: 'wrong-guess', ip: '203.0.113.9' })).statusCode).toBe(401)
      expect((await passwordStep({ ip: '198.51.100.20' })).statusCode).toBe(200)
    }
    // The third failure from the guessing address locks it there, not elsewhere.
    expect((await passwordStep({ password: 'wrong-guess', ip: '203.0.113.9' })).statusCode).toBe(401)
    expect((await passwordStep({ ip: '203.0.113.9' })).statusCode).toBe(429)
    expect((await passwordStep({ ip: '198.51.100.20' })).statusCode).toBe(200)
    // Two more from elsewhere make five: the member is locked everywhere.
    await passwordStep({ password: 'wrong-guess', ip: '203.0.113.10' })
    await passwordStep({ password: 'wrong-guess', ip: '203.0.113.11' })
    expect((await passwordStep({ ip: '198.51.100.20' })).statusCode).toBe(429)
  })
})

describe('member fields refuse control characters and malformed values', () => {
  /** Signs the harness's member in as an administrator; answers the session token. */
  async function adminToken(): Promise<string> {
    await t.ctx.members.updateMember(t.memberId, { roles: ['stytch_admin'] }, t.clock.now)
    return (await signInThroughRoutes(t)).session_token
  }
  function invite(token: string, body: object) {
    return t.app.inject({
      method: 'POST',
      url: '/api/admin/members/invite',
      headers: { authorization: `Bearer ${token}` },
      payload: body,
    })
  }

  it('refuses an invitation with a control character in the e-mail, name or phone (400 naming it)', async () => {
    t = await identityTestApp()
    const token = await adminToken()
    const members = (await t.ctx.members.listMembers()).length
    for (const [body, parameter] of [
      [{ email: 'inv7\u0000@example.com' }, 'email'],
      [{ email: 'inv7@example.com\n' }, 'email'],
      [{ email: 'inv7@exa\u202emple.com' }, 'email'],
      [{ email: 'inv7 x@example.com' }, 'email'],
      [{ email: 'inv7@example' }, 'email'],
      [{ email: 'inv7@example.com', name: 'Ann\u0000' }, 'name'],
      [{ email: 'inv7@example.com', name: 'Ann\r\nBcc: x@evil.example' }, 'name'],
      [{ email: 'inv7@example.com', name: 'Ann \u202egnp.exe' }, 'name'],
      [{ email: 'inv7@example.com', phone: '+1505555\u00000100' }, 'phone'],
      [{ email: 'inv7@example.com', phone: '+1505555\t0100' }, 'phone'],
    ] as const) {
      const res = await invite(token, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
    }
    expect(await t.ctx.members.listMembers()).toHaveLength(members)
    expect(t.outbox('email')).toHaveLength(0)
    // Ordinary values still invite: separators in a phone, a name in any script, upper case.
    const ok = await invite(token, {
      email: 'Inv7@Example.com',
      name: ' Zoë Ōta ',
      phone: '+1 (505) 555-0100',
    })
    expect(ok.statusCode, ok.body).toBe(201)
    expect(ok.json()).toMatchObject({
      member: { email_address: 'inv7@example.com', name: 'Zoë Ōta', mfa_phone_number: '+15055550100' },
    })
  })

  it('refuses control characters in a member update and in the phone enrolled at sign-in', async () => {
    t = await identityTestApp()
    const token = await adminToken()
    const update = (body: object) =>
      t.app.inject({
        method: 'PUT',
        url: `/sdk/v1/b2b/organizations/members/${t.memberId}`,
        headers: { authorization: t.basic(token), 'content-type': 'application/json' },
        payload: body,
      })
    for (const [body, parameter] of [
      [{ name: 'Ops\u0007' }, 'name'],
      [{ mfa_phone_number: '+1505555\n0199' }, 'mfa_phone_number'],
    ] as const) {
      const res = await update(body)
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toMatchObject({ error_type: 'invalid_request', error_details: { parameter } })
    }
    expect(await t.ctx.members.memberById(t.memberId)).toMatchObject({ name: 'Ops', phone: '+15055550199' })
    // A member without a phone enrols one at sign-in: a control character in it is refused too.
    await t.ctx.members.updateMember(t.memberId, { phone: null }, t.clock.now)
    const login = await passwordStep()
    const ist = (login.json() as { data: { intermediate_session_token: string } }).data
      .intermediate_session_token
    const send = await post('/b2b/otps/sms/send', {
      organization_id: org(),
      member_id: t.memberId,
      intermediate_session_token: ist,
      mfa_phone_number: '+1505555\u20290111',
    })
    expect(send.statusCode).toBe(400)
    expect(send.json()).toMatchObject({ error_details: { parameter: 'mfa_phone_number' } })
  })

  it('refuses an e-mail address with a control character at sign-in and reset (400 naming it)', async () => {
    t = await identityTestApp()
    for (const url of ['/b2b/passwords/authenticate', '/b2b/passwords/email/reset/start']) {
      const res = await post(url, {
        organization_id: org(),
        email_address: `${t.email}\u0000`,
        password: TEST_PASSWORD,
        code_challenge: challenge,
      })
      expect(res.statusCode, url).toBe(400)
      expect(res.json()).toMatchObject({ error_details: { parameter: 'email_address' } })
    }
  })
})

const verifier = 'ab'.repeat(64)
const challenge = pkceChallenge(verifier)

function resetStart(ip: string, email = t.email) {
  return post(
    '/b2b/passwords/email/reset/start',
    { organization_id: org(), email_address: email, code_challenge: challenge },
    { ip },
  )
}
/** Reset e-mails sent so far, once every e-mail handed to delivery without waiting has gone. */
async function mails(): Promise<number> {
  await t.ctx.settle()
  return t.outbox('email').length
}

describe('reset e-mails: a stranger cannot silence a member', () => {
  it('drops a flood from one address, yet mails the member who asks from elsewhere', async () => {
    t = await identityTestApp()
    for (let i = 0; i < 10; i++) expect((await resetStart('203.0.113.9')).statusCode).toBe(200)
    const flood = await mails()
    expect(flood).toBe(t.ctx.settings.resetMail.perNetwork)
    expect((await resetStart('198.51.100.20')).statusCode).toBe(200)
    expect(await t.waitForOutbox('email', flood + 1)).toHaveLength(flood + 1)
    // An IPv6 stranger gets one allowance per /64, not one per address.
    for (let i = 1; i <= 10; i++) await resetStart(`2001:db8:1:2::${i.toString(16)}`)
    expect(await mails()).toBe(flood + 1 + t.ctx.settings.resetMail.perNetwork)
    expect((await t.ctx.members.auditLog(200)).some((e) => e.event === 'reset.dropped')).toBe(true)
  })

  it('takes its limits from identity.resetMail in config/app.yaml', async () => {
    expect(identitySettingsFrom(appConfig.identity, appConfig.session).resetMail).toEqual(
      appConfig.identity.resetMail,
    )
    t = await identityTestApp({
      settings: identitySettingsFrom(
        { ...appConfig.identity, resetMail: { ...appConfig.identity.resetMail, perNetwork: 5 } },
        appConfig.session,
      ),
    })
    for (let i = 0; i < 10; i++) expect((await resetStart('203.0.113.9')).statusCode).toBe(200)
    expect(await mails()).toBe(5)
  })

  it('caps the mails from many networks, except to a network the member signed in from', async () => {
    t = await identityTestApp()
    // The member signed in from the office last week.
    await signInThroughRoutes(t)
    t.clock.now += minutes(7 * 24 * 60)
    const { perEmail, perNetwork, perEmailMinutes } = t.ctx.settings.resetMail
    // Strangers on many networks: at most perEmail mails an hour reach the member.
    for (let i = 0; i < 3 * perEmail; i++) await resetStart(`203.0.113.${i}`)
    expect(await mails()).toBe(perEmail)
    // A new network is held by the cap; the member's own (the suite's 127.0.0.1) is not.
    await resetStart('192.0.2.77')
    expect(await mails()).toBe(perEmail)
    await resetStart('127.0.0.1')
    expect(await t.waitForOutbox('email', perEmail + 1)).toHaveLength(perEmail + 1)
    for (let i = 0; i < 5; i++) await resetStart('127.0.0.1')
    expect(await mails()).toBe(perEmail + perNetwork)
    // An hour later the cap has passed.
    t.clock.now += minutes(perEmailMinutes) + 1000
    await resetStart('192.0.2.77')
    expect(await t.waitForOutbox('email', perEmail + perNetwork + 1)).toHaveLength(perEmail + perNetwork + 1)
  })
})

describe('password reset needs the PKCE pair the SDK always sends', () => {
  it('refuses a reset start without a code_challenge (400, no e-mail)', async () => {
    t = await identityTestApp()
    const res = await post('/b2b/passwords/email/reset/start', {
      organization_id: org(),
      email_address: t.email,
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({
      error_type: 'invalid_request',
      error_details: { parameter: 'code_challenge' },
    })
    expect(await mails()).toBe(0)
  })

  it('completes a started reset only with the matching verifier', async () => {
    t = await identityTestApp()
    expect((await resetStart('127.0.0.1')).statusCode).toBe(200)
    const token = (await t.waitForOutbox('email', 1))[0]?.token ?? ''
    const reset = (codeVerifier?: string) =>
      post('/b2b/passwords/email/reset', {
        password_reset_token: token,
        password: 'A-new-long-passphrase',
        session_duration_minutes: 60,
        ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
      })
    expect(errorType(await reset())).toBe('pkce_mismatch')
    expect(errorType(await reset('cd'.repeat(64)))).toBe('pkce_mismatch')
    expect((await reset(verifier)).statusCode).toBe(200)
  })
})
