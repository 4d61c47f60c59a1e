import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { pkceChallenge } from '../../src/server/identity/crypto'
import {
  identityTestApp,
  signInThroughRoutes,
  TEST_PASSWORD,
  type IdentityTestApp,
} from '../../src/server/identity/testing/identityTestApp'

let t: IdentityTestApp
let org: string

beforeEach(async () => {
  t = await identityTestApp()
  org = t.ctx.settings.organizationId
})
afterEach(async () => t.close())

function post(url: string, payload: unknown, secret?: string) {
  return t.app.inject({
    method: 'POST',
    url: `/sdk/v1${url}`,
    headers: { authorization: t.basic(secret), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  })
}
const errorType = (res: { json(): unknown }) => (res.json() as { error_type: string }).error_type
const minutes = (n: number) => n * 60_000

async function intermediate(password = TEST_PASSWORD): Promise<string> {
  const res = await post('/b2b/passwords/authenticate', {
    organization_id: org,
    email_address: t.email,
    password,
  })
  return (res.json() as { data: { intermediate_session_token: string } }).data.intermediate_session_token
}

async function sendCode(ist: string): Promise<string> {
  const res = await post('/b2b/otps/sms/send', {
    organization_id: org,
    member_id: t.memberId,
    intermediate_session_token: ist,
  })
  expect(res.statusCode).toBe(200)
  return t.outbox('sms').at(-1)?.code ?? ''
}

function smsAuth(ist: string, code: string) {
  return post('/b2b/otps/sms/authenticate', {
    organization_id: org,
    member_id: t.memberId,
    intermediate_session_token: ist,
    code,
    session_duration_minutes: 1440,
  })
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0')

describe('SMS codes', () => {
  it('refuses a wrong code, then accepts the right one', async () => {
    const ist = await intermediate()
    const code = await sendCode(ist)
    const bad = await smsAuth(ist, wrong(code))
    expect(bad.statusCode).toBe(401)
    expect(errorType(bad)).toBe('unable_to_auth_otp_code')
    expect((await smsAuth(ist, code)).statusCode).toBe(200)
  })

  it('refuses a reused code and a reused intermediate session', async () => {
    const ist = await intermediate()
    const code = await sendCode(ist)
    expect((await smsAuth(ist, code)).statusCode).toBe(200)
    const again = await smsAuth(ist, code)
    expect(again.statusCode).toBe(401)
    expect(errorType(again)).toBe('intermediate_session_not_found')
    const ist2 = await intermediate()
    expect(errorType(await smsAuth(ist2, code))).toBe('unable_to_auth_otp_code')
  })

  it('refuses an expired code', async () => {
    const ist = await intermediate()
    const code = await sendCode(ist)
    t.clock.now += minutes(t.ctx.settings.otp.expiryMinutes) + 1000
    expect(errorType(await smsAuth(ist, code))).toBe('unable_to_auth_otp_code')
  })

  it('refuses an expired intermediate session (10 minutes)', async () => {
    const ist = await intermediate()
    t.clock.now += minutes(t.ctx.settings.sessionMinutes.intermediate) + 1000
    const res = await post('/b2b/otps/sms/send', {
      organization_id: org,
      member_id: t.memberId,
      intermediate_session_token: ist,
    })
    expect(errorType(res)).toBe('intermediate_session_not_found')
  })

  it('burns the code after the maximum number of attempts', async () => {
    const ist = await intermediate()
    const code = await sendCode(ist)
    for (let i = 0; i < t.ctx.settings.otp.maxAttempts; i++) {
      expect(errorType(await smsAuth(ist, wrong(code)))).toBe('unable_to_auth_otp_code')
    }
    expect(errorType(await smsAuth(ist, code))).toBe('unable_to_auth_otp_code')
  })

  it('retires earlier codes when a new one is sent', async () => {
    const ist = await intermediate()
    const first = await sendCode(ist)
    const second = await sendCode(ist)
    if (first !== second) expect(errorType(await smsAuth(ist, first))).toBe('unable_to_auth_otp_code')
    expect((await smsAuth(ist, second)).statusCode).toBe(200)
  })

  it('limits how many codes one intermediate session may request', async () => {
    const ist = await intermediate()
    for (let i = 0; i < t.ctx.settings.otp.maxSends; i++) await sendCode(ist)
    const res = await post('/b2b/otps/sms/send', {
      organization_id: org,
      member_id: t.memberId,
      intermediate_session_token: ist,
    })
    expect(res.statusCode).toBe(429)
  })

  it('refuses an intermediate session of another member and a different phone', async () => {
    const ist = await intermediate()
    const other = await post('/b2b/otps/sms/send', {
      organization_id: org,
      member_id: 'member-test-someone-else',
      intermediate_session_token: ist,
    })
    expect(errorType(other)).toBe('intermediate_session_not_found')
    const phone = await post('/b2b/otps/sms/send', {
      organization_id: org,
      member_id: t.memberId,
      intermediate_session_token: ist,
      mfa_phone_number: '+15055550000',
    })
    expect(errorType(phone)).toBe('mfa_phone_number_mismatch')
  })

  it('rejects a malformed code with 400', async () => {
    const ist = await intermediate()
    const res = await smsAuth(ist, '12ab56')
    expect(res.statusCode).toBe(400)
    expect(errorType(res)).toBe('invalid_request')
  })
})

describe('lockout', () => {
  it('locks the member after 10 failures in 15 minutes, for 15 minutes, even with the right password', async () => {
    const { maxFailures, lockMinutes } = t.ctx.settings.throttle
    for (let i = 0; i < maxFailures; i++) {
      const res = await post('/b2b/passwords/authenticate', {
        organization_id: org,
        email_address: t.email,
        password: `nope-${i}`,
      })
      expect(res.statusCode).toBe(401)
    }
    const locked = await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: t.email,
      password: TEST_PASSWORD,
    })
    expect(locked.statusCode).toBe(429)
    expect(errorType(locked)).toBe('too_many_requests')
    t.clock.now += minutes(lockMinutes) + 1000
    const after = await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: t.email,
      password: TEST_PASSWORD,
    })
    expect(after.statusCode).toBe(200)
    expect((await t.ctx.members.auditLog()).some((e) => e.event === 'throttle.locked')).toBe(true)
  })

  it('counts parallel guesses before checking them, so a burst cannot outrun the lockout', async () => {
    const burst = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        post('/b2b/passwords/authenticate', {
          organization_id: org,
          email_address: t.email,
          password: `guess-${i}`,
        }),
      ),
    )
    const checked = burst.filter((r) => r.statusCode === 401).length
    expect(checked).toBeLessThanOrEqual(t.ctx.settings.throttle.maxFailures)
    expect(burst.filter((r) => r.statusCode === 429).length).toBe(25 - checked)
    const res = await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: t.email,
      password: TEST_PASSWORD,
    })
    expect(res.statusCode).toBe(429)
  })

  it('locks an unknown e-mail the same way (no enumeration through lockout)', async () => {
    for (let i = 0; i < t.ctx.settings.throttle.maxFailures; i++) {
      await post('/b2b/passwords/authenticate', {
        organization_id: org,
        email_address: 'ghost@x.test',
        password: 'nope nope',
      })
    }
    const res = await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: 'ghost@x.test',
      password: 'x',
    })
    expect(res.statusCode).toBe(429)
  })

  it('forgets failures older than the window', async () => {
    const { maxFailures, windowMinutes } = t.ctx.settings.throttle
    for (let i = 0; i < maxFailures - 1; i++) {
      await post('/b2b/passwords/authenticate', {
        organization_id: org,
        email_address: t.email,
        password: `nope-${i}`,
      })
    }
    t.clock.now += minutes(windowMinutes) + 1000
    await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: t.email,
      password: 'nope again',
    })
    const ok = await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: t.email,
      password: TEST_PASSWORD,
    })
    expect(ok.statusCode).toBe(200)
  })

  it('locks SMS attempts per member across intermediate sessions, and sends a locked member no code', async () => {
    for (let i = 0; i < t.ctx.settings.throttle.maxFailures; i++) {
      const ist = await intermediate()
      await smsAuth(ist, '000000')
    }
    const ist = await intermediate()
    const sent = t.outbox('sms').length
    expect((await smsAuth(ist, '123456')).statusCode).toBe(429)
    const send = await post('/b2b/otps/sms/send', {
      organization_id: org,
      member_id: t.memberId,
      intermediate_session_token: ist,
    })
    expect(send.statusCode).toBe(429)
    expect(t.outbox('sms')).toHaveLength(sent)
  })
})

describe('password reset', () => {
  const verifier = 'a'.repeat(64) + 'b'.repeat(64)

  async function start(email = t.email, challenge: string | undefined = pkceChallenge(verifier)) {
    const res = await post('/b2b/passwords/email/reset/start', {
      organization_id: org,
      email_address: email,
      reset_password_redirect_url: 'https://evil.example/steal',
      code_challenge: challenge,
    })
    expect(res.statusCode).toBe(200)
    return res
  }
  function reset(token: string, password: string, codeVerifier: string | null = verifier) {
    return post('/b2b/passwords/email/reset', {
      password_reset_token: token,
      password,
      session_duration_minutes: 60,
      code_verifier: codeVerifier ?? undefined,
    })
  }

  it('answers the same for unknown and known e-mails and mails only members', async () => {
    const known = await start()
    const unknown = await start('ghost@x.test')
    const keys = (r: typeof known) => Object.keys((r.json() as { data: object }).data).sort()
    expect(keys(unknown)).toEqual(keys(known))
    const mails = await t.waitForOutbox('email', 1)
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(t.outbox('email')).toHaveLength(1)
    const mail = mails[0]
    expect(mail).toMatchObject({ channel: 'email', to: t.email, memberId: t.memberId })
    // The link never follows a redirect URL on another origin.
    expect(mail?.link).toMatch(
      new RegExp(
        `^http://localhost:80${t.ctx.settings.resetPath}\\?stytch_token_type=multi_tenant_passwords&token=`,
      ),
    )
  })

  it('resets once, revokes existing sessions, and starts the SMS step with a 60-minute cap', async () => {
    const before = await signInThroughRoutes(t)
    await start()
    const token = (await t.waitForOutbox('email', 1))[0]?.token ?? ''
    const res = await reset(token, 'A-new-long-passphrase')
    expect(res.statusCode).toBe(200)
    const data = (res.json() as { data: { member_session: null; intermediate_session_token: string } }).data
    expect(data.member_session).toBeNull()
    const sessions = await post('/b2b/sessions/authenticate', {}, before.session_token)
    expect(errorType(sessions)).toBe('unauthorized_credentials')
    const code = await sendCode(data.intermediate_session_token)
    const done = await smsAuth(data.intermediate_session_token, code)
    const expires = (done.json() as { data: { member_session: { expires_at: string } } }).data.member_session
      .expires_at
    expect(Date.parse(expires) - t.clock.now).toBe(minutes(60))
    expect(errorType(await reset(token, 'Another-long-passphrase'))).toBe(
      'unable_to_auth_password_reset_token',
    )
    const login = await post('/b2b/passwords/authenticate', {
      organization_id: org,
      email_address: t.email,
      password: 'A-new-long-passphrase',
    })
    expect(login.statusCode).toBe(200)
  })

  it('refuses wrong, expired and PKCE-less tokens, and weak passwords', async () => {
    expect(errorType(await reset('not-a-real-token', 'A-new-long-passphrase'))).toBe(
      'unable_to_auth_password_reset_token',
    )
    await start()
    const token = (await t.waitForOutbox('email', 1))[0]?.token ?? ''
    expect(errorType(await reset(token, 'A-new-long-passphrase', null))).toBe('pkce_mismatch')
    expect(errorType(await reset(token, 'A-new-long-passphrase', 'c'.repeat(128)))).toBe('pkce_mismatch')
    expect(errorType(await reset(token, 'short'))).toBe('weak_password')
    t.clock.now += minutes(t.ctx.settings.resetTokenExpiryMinutes) + 1000
    expect(errorType(await reset(token, 'A-new-long-passphrase'))).toBe('unable_to_auth_password_reset_token')
  })
})
