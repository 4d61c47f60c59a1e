import { StytchAPIError, StytchAPIUnreachableError } from '@stytch/vanilla-js/b2b/headless'
import { describe, expect, it, vi } from 'vitest'
import { createActor, waitFor } from 'xstate'
import { appConfig } from '../../shared/config'
import type { AuthClient, AuthOutcome } from './authClient'
import { loginMachine } from './loginMachine'

const mfa: AuthOutcome = {
  kind: 'mfa',
  memberId: 'member-1',
  organizationId: 'org-1',
  smsAlreadySent: false,
  phoneEnrolled: true,
}

function fakeClient(overrides: Partial<AuthClient> = {}): AuthClient {
  return {
    passwordLogin: vi.fn(async () => mfa),
    sendSms: vi.fn(async () => undefined),
    verifySms: vi.fn(async () => undefined),
    startPasswordReset: vi.fn(async () => undefined),
    resetPassword: vi.fn(async (): Promise<AuthOutcome> => ({ kind: 'session' })),
    ...overrides,
  }
}

const fail = (type: string) => async () => {
  throw Object.assign(new Error(type), { error_type: type })
}

function start(client: AuthClient, token?: string) {
  const actor = createActor(loginMachine, {
    input: token === undefined ? { client, mode: 'login' } : { client, mode: 'reset', token },
  })
  actor.start()
  return actor
}

describe('loginMachine', () => {
  it('goes password → SMS send → code entry → signed in', async () => {
    const client = fakeClient()
    const actor = start(client)
    expect(actor.getSnapshot().value).toBe('credentials')
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    expect(actor.getSnapshot().value).toBe('authenticating')
    await waitFor(actor, (s) => s.matches('codeEntry'))
    expect(client.passwordLogin).toHaveBeenCalledWith('a@b.test', 'pw')
    expect(client.sendSms).toHaveBeenCalledWith('member-1', 'org-1')
    actor.send({ type: 'SUBMIT_CODE', code: '123456' })
    await waitFor(actor, (s) => s.status === 'done')
    expect(client.verifySms).toHaveBeenCalledWith('member-1', 'org-1', '123456')
    expect(actor.getSnapshot().value).toBe('signedIn')
  })

  it('asks a member without an SMS phone for one, sends the code there, and back to the phone on a refusal', async () => {
    const refused = Object.assign(new Error('bad'), {
      error_type: 'invalid_request',
      error_message: 'phone must be in E.164 form, e.g. +15055550123 (got "12")',
    })
    const sendSms = vi.fn<AuthClient['sendSms']>().mockRejectedValueOnce(refused).mockResolvedValue(undefined)
    const client = fakeClient({
      passwordLogin: vi.fn(async () => ({ ...mfa, phoneEnrolled: false })),
      sendSms,
    })
    const actor = start(client)
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(actor, (s) => s.matches('phoneEntry'))
    expect(sendSms).not.toHaveBeenCalled()
    actor.send({ type: 'SUBMIT_PHONE', phone: '12' })
    await waitFor(actor, (s) => s.matches('phoneEntry') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toContain('E.164')
    actor.send({ type: 'SUBMIT_PHONE', phone: '+15055550188' })
    await waitFor(actor, (s) => s.matches('codeEntry'))
    expect(sendSms).toHaveBeenLastCalledWith('member-1', 'org-1', '+15055550188')
    actor.send({ type: 'SUBMIT_CODE', code: '123456' })
    await waitFor(actor, (s) => s.status === 'done')
  })

  it('skips the SMS send when the provider already sent the code', async () => {
    const client = fakeClient({ passwordLogin: vi.fn(async () => ({ ...mfa, smsAlreadySent: true })) })
    const actor = start(client)
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(actor, (s) => s.matches('codeEntry'))
    expect(client.sendSms).not.toHaveBeenCalled()
  })

  it('finishes at once on a full session (no MFA)', async () => {
    const actor = start(
      fakeClient({ passwordLogin: vi.fn(async (): Promise<AuthOutcome> => ({ kind: 'session' })) }),
    )
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(actor, (s) => s.status === 'done')
  })

  it("says 'Invalid username or password' on a bad password", async () => {
    const actor = start(fakeClient({ passwordLogin: vi.fn(fail('unauthorized_credentials')) }))
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'bad' })
    await waitFor(actor, (s) => s.matches('credentials') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toBe(appConfig.messages.invalidCredentials)
    expect(appConfig.messages.invalidCredentials).toBe('Invalid username or password')
  })

  it("says 'Failed to send SMS code' when sending or resending fails, and clears it on success", async () => {
    const sendSms = vi.fn<AuthClient['sendSms']>(fail('sms_send_failed'))
    const actor = start(fakeClient({ sendSms }))
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(actor, (s) => s.matches('codeEntry'))
    expect(actor.getSnapshot().context.error).toBe('Failed to send SMS code')
    sendSms.mockImplementation(async () => undefined)
    actor.send({ type: 'RESEND' })
    expect(actor.getSnapshot().value).toBe('sendingSms')
    await waitFor(actor, (s) => s.matches('codeEntry'))
    expect(actor.getSnapshot().context.error).toBeNull()
    expect(sendSms).toHaveBeenCalledTimes(2)
  })

  it("says 'Invalid SMS code' on a wrong code and lets the user retry", async () => {
    const verifySms = vi.fn<AuthClient['verifySms']>(fail('invalid_code'))
    const actor = start(fakeClient({ verifySms }))
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(actor, (s) => s.matches('codeEntry'))
    actor.send({ type: 'SUBMIT_CODE', code: '000000' })
    await waitFor(actor, (s) => s.matches('codeEntry') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toBe('Invalid SMS code')
    verifySms.mockImplementation(async () => undefined)
    actor.send({ type: 'SUBMIT_CODE', code: '123456' })
    await waitFor(actor, (s) => s.status === 'done')
  })

  it('goes back from code entry to credentials', async () => {
    const actor = start(fakeClient())
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(actor, (s) => s.matches('codeEntry'))
    actor.send({ type: 'BACK' })
    expect(actor.getSnapshot().value).toBe('credentials')
  })

  it('starts a reset by e-mail and reports the request', async () => {
    const client = fakeClient()
    const actor = start(client)
    actor.send({ type: 'FORGOT', email: 'a@b.test' })
    await waitFor(actor, (s) => s.matches('resetRequested'))
    expect(client.startPasswordReset).toHaveBeenCalledWith('a@b.test')
    actor.send({ type: 'BACK' })
    expect(actor.getSnapshot().value).toBe('credentials')
  })

  it('returns to credentials with the unreachable message when the API cannot be reached', async () => {
    const unreachable = Object.assign(new Error('Unable to contact our servers.'), {
      name: 'SDKAPIUnreachableError',
    })
    const actor = start(fakeClient({ startPasswordReset: vi.fn(() => Promise.reject(unreachable)) }))
    actor.send({ type: 'FORGOT', email: 'a@b.test' })
    await waitFor(actor, (s) => s.matches('credentials') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toBe(appConfig.messages.unreachable)
  })

  it("shows the provider's own message, not 'Unable to contact our servers.', when the reset request is refused", async () => {
    const refused = Object.assign(new Error('[400] invalid_request'), {
      name: 'StytchSDKAPIError',
      error_type: 'invalid_request',
      error_message: 'Invalid email_address: must match format "email"',
    })
    const actor = start(fakeClient({ startPasswordReset: vi.fn(() => Promise.reject(refused)) }))
    actor.send({ type: 'FORGOT', email: 'not-an-address' })
    await waitFor(actor, (s) => s.matches('credentials') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toBe('Invalid email_address: must match format "email"')
    expect(actor.getSnapshot().context.error).not.toBe(appConfig.messages.unreachable)
  })

  it('resets the password with the token from the link', async () => {
    const client = fakeClient()
    const actor = start(client, 'reset-token-1')
    expect(actor.getSnapshot().value).toBe('resetForm')
    actor.send({ type: 'SUBMIT_RESET', password: 'new-password-1' })
    await waitFor(actor, (s) => s.status === 'done')
    expect(client.resetPassword).toHaveBeenCalledWith('reset-token-1', 'new-password-1')
  })

  it('continues to the SMS step when the reset needs MFA', async () => {
    const client = fakeClient({ resetPassword: vi.fn(async () => mfa) })
    const actor = start(client, 'reset-token-1')
    actor.send({ type: 'SUBMIT_RESET', password: 'new-password-1' })
    await waitFor(actor, (s) => s.matches('codeEntry'))
    expect(client.sendSms).toHaveBeenCalledWith('member-1', 'org-1')
  })

  it("says 'Invalid password reset token' when the reset fails", async () => {
    const actor = start(fakeClient({ resetPassword: vi.fn(fail('invalid_token')) }), 'bad')
    actor.send({ type: 'SUBMIT_RESET', password: 'new-password-1' })
    await waitFor(actor, (s) => s.matches('resetForm') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toBe('Invalid password reset token')
  })
})

// The SDK's own errors (the pinned @stytch/vanilla-js): a network failure, a proxy's HTML 502, and a
// JSON 5xx from our bundled provider; each step says the spec's unreachable sentence, not its own.
const providerDown = {
  'network failure': () => new StytchAPIUnreachableError('Unable to contact our servers.'),
  'answer that is no API answer (HTML 502)': () =>
    new StytchAPIUnreachableError('Invalid response from our servers.'),
  'server error (JSON 500)': () =>
    new StytchAPIError({
      status_code: 500,
      error_type: 'internal_server_error',
      error_message: 'The identity provider failed.',
      error_url: '',
    }),
}

describe.each(Object.entries(providerDown))('loginMachine, identity provider down: %s', (_, down) => {
  const unreachable = 'Unable to contact our servers.'
  const reject = () => vi.fn(() => Promise.reject(down()))

  it("says 'Unable to contact our servers.' at the password step", async () => {
    expect(appConfig.messages.unreachable).toBe(unreachable)
    const actor = start(fakeClient({ passwordLogin: reject() }))
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(actor, (s) => s.matches('credentials') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toBe(unreachable)
  })

  it("says 'Unable to contact our servers.' at the SMS-code step", async () => {
    const actor = start(fakeClient({ verifySms: reject() }))
    actor.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(actor, (s) => s.matches('codeEntry'))
    actor.send({ type: 'SUBMIT_CODE', code: '123456' })
    await waitFor(actor, (s) => s.matches('codeEntry') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toBe(unreachable)
  })

  it("says 'Unable to contact our servers.' when nothing answers the SMS send; 'Failed to send SMS code' when the provider's gateway failed", async () => {
    const error = down()
    const noAnswer = !('status_code' in error)
    const sending = start(fakeClient({ sendSms: reject() }))
    sending.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(sending, (s) => s.matches('codeEntry') && s.context.error !== null)
    expect(sending.getSnapshot().context.error).toBe(noAnswer ? unreachable : 'Failed to send SMS code')

    const enrolling = start(
      fakeClient({ passwordLogin: vi.fn(async () => ({ ...mfa, phoneEnrolled: false })), sendSms: reject() }),
    )
    enrolling.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(enrolling, (s) => s.matches('phoneEntry'))
    enrolling.send({ type: 'SUBMIT_PHONE', phone: '+15055550188' })
    await waitFor(enrolling, (s) => s.matches('phoneEntry') && s.context.error !== null)
    expect(enrolling.getSnapshot().context.error).toBe(
      noAnswer ? unreachable : 'The identity provider failed.',
    )
  })

  it("says 'Unable to contact our servers.' when the new password cannot be set", async () => {
    const actor = start(fakeClient({ resetPassword: reject() }), 'reset-token-1')
    actor.send({ type: 'SUBMIT_RESET', password: 'new-password-1' })
    await waitFor(actor, (s) => s.matches('resetForm') && s.context.error !== null)
    expect(actor.getSnapshot().context.error).toBe(unreachable)
  })
})

describe('loginMachine, the provider refuses (4xx from the real SDK error class)', () => {
  const refusal = (type: string, message: string) => () =>
    Promise.reject(
      new StytchAPIError({ status_code: 401, error_type: type, error_message: message, error_url: '' }),
    )

  it("keeps the step's own words for a wrong password and a wrong code", async () => {
    const wrongPassword = start(
      fakeClient({ passwordLogin: vi.fn(refusal('unauthorized_credentials', 'Unauthorized credentials.')) }),
    )
    wrongPassword.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'bad' })
    await waitFor(wrongPassword, (s) => s.matches('credentials') && s.context.error !== null)
    expect(wrongPassword.getSnapshot().context.error).toBe('Invalid username or password')

    const wrongCode = start(
      fakeClient({ verifySms: vi.fn(refusal('otp_code_not_found', 'Code not found.')) }),
    )
    wrongCode.send({ type: 'SUBMIT_PASSWORD', email: 'a@b.test', password: 'pw' })
    await waitFor(wrongCode, (s) => s.matches('codeEntry'))
    wrongCode.send({ type: 'SUBMIT_CODE', code: '000000' })
    await waitFor(wrongCode, (s) => s.matches('codeEntry') && s.context.error !== null)
    expect(wrongCode.getSnapshot().context.error).toBe('Invalid SMS code')
  })
})
