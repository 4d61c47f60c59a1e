import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { pkceChallenge } from '../../src/server/identity/crypto'
import { createMember } from '../../src/server/identity/memberAdmin'
import {
  identityTestApp,
  signInThroughRoutes,
  TEST_PASSWORD,
  TEST_PHONE,
  type IdentityTestApp,
} from '../../src/server/identity/testing/identityTestApp'

// The identity provider as strict as docs/identity.md says: reset links, session lengths, SMS
// caps, per-address lockout, delivery failures and password reuse.
let t: IdentityTestApp
afterEach(async () => t?.close())

const minutes = (n: number) => n * 60_000
const errorType = (res: { json(): unknown }) => (res.json() as { error_type: string }).error_type

function post(url: string, payload: unknown, opts: { secret?: string; ip?: string; host?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/sdk/v1${url}`,
    payload: payload as object,
    remoteAddress: opts.ip ?? '127.0.0.1',
    headers: {
      authorization: t.basic(opts.secret),
      'content-type': 'application/json',
      ...(opts.host ? { host: opts.host } : {}),
    },
  })
}

const org = () => t.ctx.settings.organizationId

async function passwordStep(opts: { email?: string; password?: string; ip?: string } = {}) {
  return post(
    '/b2b/passwords/authenticate',
    {
      organization_id: org(),
      email_address: opts.email ?? t.email,
      password: opts.password ?? TEST_PASSWORD,
    },
    { ip: opts.ip },
  )
}

async function intermediate(
  opts: { email?: string; ip?: string } = {},
): Promise<{ ist: string; memberId: string }> {
  const res = await passwordStep(opts)
  expect(res.statusCode, res.body).toBe(200)
  const data = (res.json() as { data: { intermediate_session_token: string; member_id: string } }).data
  return { ist: data.intermediate_session_token, memberId: data.member_id }
}

function sendSms(ist: string, memberId = t.memberId, ip?: string) {
  return post(
    '/b2b/otps/sms/send',
    { organization_id: org(), member_id: memberId, intermediate_session_token: ist },
    { ip },
  )
}

async function smsAuth(ist: string, opts: { ip?: string; minutes?: number; memberId?: string } = {}) {
  const code = t.outbox('sms').at(-1)?.code ?? ''
  return post(
    '/b2b/otps/sms/authenticate',
    {
      organization_id: org(),
      member_id: opts.memberId ?? t.memberId,
      intermediate_session_token: ist,
      code,
      session_duration_minutes: opts.minutes ?? 1440,
    },
    { ip: opts.ip },
  )
}

// The PKCE pair the SDK sends with every reset (bootstrap requires it).
const verifier = 'ab'.repeat(64)

async function resetStart(opts: { host?: string; email?: string } = {}) {
  const res = await post(
    '/b2b/passwords/email/reset/start',
    { organization_id: org(), email_address: opts.email ?? t.email, code_challenge: pkceChallenge(verifier) },
    { host: opts.host },
  )
  expect(res.statusCode).toBe(200)
  return res
}

function reset(token: string, password: string, sessionMinutes = 60) {
  return post('/b2b/passwords/email/reset', {
    password_reset_token: token,
    password,
    session_duration_minutes: sessionMinutes,
    code_verifier: verifier,
  })
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 100))

describe('password reset', () => {
  it('ends every other outstanding reset link of the member', async () => {
    t = await identityTestApp()
    await resetStart()
    await resetStart()
    const [first, second] = await t.waitForOutbox('email', 2)
    expect((await reset(second?.token ?? '', 'A-new-long-passphrase')).statusCode).toBe(200)
    expect(errorType(await reset(first?.token ?? '', 'Another-long-passphrase'))).toBe(
      'unable_to_auth_password_reset_token',
    )
  })

  it('keeps a session made by a reset within 60 minutes, however it is asked to extend', async () => {
    t = await identityTestApp()
    await resetStart()
    const [mail] = await t.waitForOutbox('email', 1)
    // Asking for a day at reset time gives the reset length.
    const res = await reset(mail?.token ?? '', 'A-new-long-passphrase', 1440)
    const ist = (res.json() as { data: { intermediate_session_token: string } }).data
      .intermediate_session_token
    expect((await sendSms(ist)).statusCode).toBe(200)
    const done = await smsAuth(ist, { minutes: 1440 })
    const session = (
      done.json() as { data: { session_token: string; member_session: { expires_at: string } } }
    ).data
    const started = t.clock.now
    expect(Date.parse(session.member_session.expires_at)).toBe(started + minutes(60))
    t.clock.now += minutes(30)
    const refreshed = await post(
      '/b2b/sessions/authenticate',
      { session_duration_minutes: 1440 },
      { secret: session.session_token },
    )
    expect(refreshed.statusCode).toBe(200)
    const expires = (refreshed.json() as { data: { member_session: { expires_at: string } } }).data
      .member_session.expires_at
    expect(Date.parse(expires)).toBe(started + minutes(60))
    t.clock.now = started + minutes(61)
    expect((await post('/b2b/sessions/authenticate', {}, { secret: session.session_token })).statusCode).toBe(
      401,
    )
  })

  it('never builds the link from an arbitrary Host header', async () => {
    t = await identityTestApp()
    await resetStart({ host: 'evil.example' })
    await settle()
    expect(t.outbox('email')).toHaveLength(0)
    expect((await t.ctx.members.auditLog(5)).map((e) => e.event)).toContain('reset.host_refused')
    await resetStart({ host: '127.0.0.1:8080' })
    const [mail] = await t.waitForOutbox('email', 1)
    expect(mail?.link).toMatch(/^http:\/\/127\.0\.0\.1:8080\/login\/Reset\?/)
  })

  it('builds the link from EMBERLINE_PUBLIC_URL whatever the Host, and honours EMBERLINE_ALLOWED_HOSTS', async () => {
    t = await identityTestApp({ env: { EMBERLINE_PUBLIC_URL: 'https://map.utility.example/' } })
    await resetStart({ host: 'evil.example' })
    const [mail] = await t.waitForOutbox('email', 1)
    expect(mail?.link).toMatch(/^https:\/\/map\.utility\.example\/login\/Reset\?/)
    await t.close()
    t = await identityTestApp({
      env: { EMBERLINE_ALLOWED_HOSTS: 'ops.utility.example, map.utility.example' },
    })
    await resetStart({ host: 'ops.utility.example' })
    const [allowed] = await t.waitForOutbox('email', 1)
    expect(allowed?.link).toMatch(/^http:\/\/ops\.utility\.example\/login\/Reset\?/)
  })

  it('answers a known address without waiting for the e-mail gateway (same work as an unknown one)', async () => {
    t = await identityTestApp()
    let handed = 0
    t.ctx.delivery = {
      sms: () => Promise.resolve(),
      email: () => {
        handed++
        return new Promise<void>(() => {}) // a gateway that never answers
      },
    }
    const known = await resetStart()
    const unknown = await resetStart({ email: 'nobody@emberline.test' })
    expect(known.json()).toMatchObject({ data: { status_code: 200 } })
    const body = (r: typeof known) => Object.keys((r.json() as { data: object }).data).sort()
    expect(body(known)).toEqual(body(unknown))
    expect(handed).toBe(1)
  })

  it('refuses setting the same password again (reset and change)', async () => {
    t = await identityTestApp()
    await resetStart()
    const [mail] = await t.waitForOutbox('email', 1)
    const same = await reset(mail?.token ?? '', TEST_PASSWORD)
    expect(same.statusCode).toBe(400)
    expect(errorType(same)).toBe('weak_password')
    expect((same.json() as { error_message: string }).error_message).toMatch(/different/)
    // The link still works for a new password.
    expect((await reset(mail?.token ?? '', 'A-new-long-passphrase')).statusCode).toBe(200)
  })
})

describe('password change', () => {
  it('refuses the current password as the new one', async () => {
    t = await identityTestApp()
    const session = await signInThroughRoutes(t)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/me/password',
      headers: { authorization: `Bearer ${session.session_token}` },
      payload: { old: TEST_PASSWORD, new: TEST_PASSWORD },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toMatchObject({ parameter: 'new', message: expect.stringMatching(/different/) })
  })
})

describe('a server reachable off loopback', () => {
  it('refuses to start without EMBERLINE_PUBLIC_URL (reset links would follow the Host header)', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: {
        ...process.env,
        HOST: '0.0.0.0',
        PORT: '0',
        DATA_DIR: path.join(os.tmpdir(), 'never-created'),
        EMBERLINE_PUBLIC_URL: '',
        EMBERLINE_ALLOWED_HOSTS: '',
        EMBERLINE_IDP: '',
      },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(run.status).toBe(1)
    expect(run.stderr.trim()).toMatch(
      /^emberline: HOST=0\.0\.0\.0 is not a loopback address: set EMBERLINE_PUBLIC_URL/,
    )
  })
})

describe('sign-in lockout is per address', () => {
  it('locks the guessing address, not the member signing in elsewhere', async () => {
    t = await identityTestApp()
    const attacker = '203.0.113.9'
    for (let i = 0; i < t.ctx.settings.throttle.maxFailures; i++) {
      await passwordStep({ password: 'wrong-password-guess', ip: attacker })
    }
    const blocked = await passwordStep({ ip: attacker })
    expect(blocked.statusCode).toBe(429)
    const { ist } = await intermediate({ ip: '198.51.100.20' })
    expect((await sendSms(ist, t.memberId, '198.51.100.20')).statusCode).toBe(200)
    const done = await smsAuth(ist, { ip: '198.51.100.20' })
    expect(done.statusCode).toBe(200)
    expect((await passwordStep({ ip: attacker })).statusCode).toBe(429)
  })

  it('locks the e-mail everywhere after memberMaxFailures from many addresses', async () => {
    t = await identityTestApp()
    const { memberMaxFailures } = t.ctx.settings.throttle
    for (let i = 0; i < memberMaxFailures; i++) {
      await passwordStep({ password: 'wrong-password-guess', ip: `10.0.${Math.floor(i / 200)}.${i % 200}` })
    }
    expect((await passwordStep({ ip: '198.51.100.20' })).statusCode).toBe(429)
    // 100 scrypt checks: give a busy machine (and the PostgreSQL half) the time they take.
  }, 120_000)
})

describe('SMS sends', () => {
  it('are capped per member per hour across intermediate sessions', async () => {
    t = await identityTestApp()
    const cap = t.ctx.settings.otp.maxSendsPerMemberHour
    let sent = 0
    while (sent < cap) {
      const { ist } = await intermediate()
      for (let i = 0; i < t.ctx.settings.otp.maxSends && sent < cap; i++, sent++) {
        expect((await sendSms(ist)).statusCode).toBe(200)
      }
    }
    const { ist } = await intermediate()
    const over = await sendSms(ist)
    expect(over.statusCode).toBe(429)
    expect(t.outbox('sms')).toHaveLength(cap)
    t.clock.now += minutes(61)
    const { ist: later } = await intermediate()
    expect((await sendSms(later)).statusCode).toBe(200)
  })

  it('are capped per phone number, whichever member it belongs to', async () => {
    t = await identityTestApp()
    const other = await createMember(
      t.ctx.members,
      t.ctx.settings,
      {
        email: 'second@emberline.test',
        name: 'Second',
        phone: TEST_PHONE,
        password: TEST_PASSWORD,
        roles: [],
      },
      t.clock.now,
    )
    const cap = t.ctx.settings.otp.maxSendsPerPhoneHour
    const half = Math.ceil(cap / 2)
    const a = await intermediate()
    const a2 = await intermediate()
    const b = await intermediate({ email: 'second@emberline.test' })
    const b2 = await intermediate({ email: 'second@emberline.test' })
    let sent = 0
    for (const [s, member, n] of [
      [a.ist, t.memberId, Math.min(half, t.ctx.settings.otp.maxSends)],
      [a2.ist, t.memberId, half - Math.min(half, t.ctx.settings.otp.maxSends)],
      [b.ist, other.memberId, Math.min(cap - half, t.ctx.settings.otp.maxSends)],
      [b2.ist, other.memberId, cap - half - Math.min(cap - half, t.ctx.settings.otp.maxSends)],
    ] as const) {
      for (let i = 0; i < n; i++, sent++) expect((await sendSms(s, member)).statusCode).toBe(200)
    }
    expect(sent).toBe(cap)
    const { ist } = await intermediate({ email: 'second@emberline.test' })
    expect((await sendSms(ist, other.memberId)).statusCode).toBe(429)
  })

  it('take their hourly cap from EMBERLINE_SMS_MAX_PER_HOUR when it is set', async () => {
    t = await identityTestApp({ env: { EMBERLINE_SMS_MAX_PER_HOUR: '2' } })
    const { ist } = await intermediate()
    expect((await sendSms(ist)).statusCode).toBe(200)
    expect((await sendSms(ist)).statusCode).toBe(200)
    expect((await sendSms(ist)).statusCode).toBe(429)
  })

  it('answer 502 delivery_failed when the code cannot be delivered', async () => {
    t = await identityTestApp()
    fs.writeFileSync(path.join(t.dataDir, 'outbox'), 'not a directory')
    const { ist } = await intermediate()
    const res = await sendSms(ist)
    expect(res.statusCode).toBe(502)
    expect(errorType(res)).toBe('delivery_failed')
  })
})
