import { StytchAPIError, StytchAPIUnreachableError } from '@stytch/vanilla-js/b2b/headless'
import { describe, expect, it } from 'vitest'
import { stepFailure } from './authClient'

const apiError = (status: number, type: string) =>
  new StytchAPIError({ status_code: status, error_type: type, error_message: type, error_url: '' })

describe('stepFailure', () => {
  it("answers the unreachable words when the provider is down, the step's own otherwise", () => {
    const down = new StytchAPIUnreachableError('Unable to contact our servers.')
    expect(stepFailure(down, 'Invalid SMS code', 'Unable to contact our servers.')).toBe(
      'Unable to contact our servers.',
    )
    expect(stepFailure(apiError(404, 'otp_code_not_found'), 'Invalid SMS code', 'Unreachable')).toBe(
      'Invalid SMS code',
    )
  })

  it('says the provider is throttling rather than that the password is wrong (429)', () => {
    const locked = new StytchAPIError({
      status_code: 429,
      error_type: 'too_many_requests',
      error_message: 'Too many failed attempts. Try again later.',
      error_url: '',
    })
    expect(stepFailure(locked, 'Invalid username or password', 'Unreachable')).toBe(
      'Too many failed attempts. Try again later.',
    )
    const bare = Object.assign(new Error('x'), { status_code: 429 })
    expect(stepFailure(bare, 'Invalid SMS code', 'Unreachable')).toBe('Too many attempts. Try again later.')
    expect(stepFailure(apiError(401, 'unauthorized_credentials'), 'Invalid SMS code', 'U')).toBe(
      'Invalid SMS code',
    )
  })
})
