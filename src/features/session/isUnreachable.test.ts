import { StytchAPIError, StytchAPIUnreachableError } from '@stytch/vanilla-js/b2b/headless'
import { describe, expect, it } from 'vitest'
import { isNoAnswer, isUnreachable } from './isUnreachable'

const apiError = (status: number, type: string) =>
  new StytchAPIError({ status_code: status, error_type: type, error_message: type, error_url: '' })

describe('isUnreachable', () => {
  it("takes the SDK's unreachable errors, fetch's network TypeErrors and 5xx answers as unreachable", () => {
    expect(isUnreachable(new StytchAPIUnreachableError('Unable to contact our servers.'))).toBe(true)
    expect(isUnreachable(new StytchAPIUnreachableError('Invalid response from our servers.'))).toBe(true)
    expect(isUnreachable(new TypeError('Failed to fetch'))).toBe(true)
    expect(isUnreachable(new TypeError('NetworkError when attempting to fetch resource.'))).toBe(true)
    expect(isUnreachable(new TypeError('Load failed'))).toBe(true)
    expect(isUnreachable(apiError(500, 'internal_server_error'))).toBe(true)
    expect(isUnreachable(apiError(503, 'service_unavailable'))).toBe(true)
  })

  it('takes refusals and programming errors as reached', () => {
    expect(isUnreachable(apiError(401, 'unauthorized_credentials'))).toBe(false)
    expect(isUnreachable(apiError(429, 'too_many_requests'))).toBe(false)
    expect(isUnreachable(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false)
    expect(isUnreachable(null)).toBe(false)
    expect(isUnreachable('Failed to fetch')).toBe(false)
  })
})

describe('isNoAnswer', () => {
  it('is only a network failure or an answer that is no API answer, not an API error of any status', () => {
    expect(isNoAnswer(new StytchAPIUnreachableError('Invalid response from our servers.'))).toBe(true)
    expect(isNoAnswer(new TypeError('Failed to fetch'))).toBe(true)
    expect(isNoAnswer(apiError(502, 'delivery_failed'))).toBe(false)
    expect(isNoAnswer(apiError(401, 'unauthorized_credentials'))).toBe(false)
  })
})
