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
})
