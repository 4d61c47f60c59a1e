import { describe, expect, it } from 'vitest'
import { toastRequest } from './toastEvents'

describe('toastRequest', () => {
  it('accepts a type and message, defaulting unknown types', () => {
    expect(toastRequest({ type: 'error', message: 'Boom' })).toEqual({ type: 'error', message: 'Boom' })
    expect(toastRequest({ type: 'weird', message: 'Hi' })).toEqual({ type: 'default', message: 'Hi' })
  })

  it('rejects details without a message', () => {
    expect(toastRequest(null)).toBeNull()
    expect(toastRequest({ type: 'info' })).toBeNull()
    expect(toastRequest({ type: 'info', message: '' })).toBeNull()
  })
})
