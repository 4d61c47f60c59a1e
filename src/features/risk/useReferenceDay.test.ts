import { describe, expect, it } from 'vitest'
import { appConfig } from '../../shared/config'
import { referenceDateOf } from './useReferenceDay'

describe('referenceDateOf', () => {
  it("uses the server's reference date in demo mode", () => {
    expect(referenceDateOf({ demo: true, referenceDate: '2025-03-05' })).toBe('2025-03-05')
    expect(referenceDateOf({ demo: true, referenceDate: null })).toBe(appConfig.demo.referenceDate)
  })

  it('has no reference date outside demo mode (today is today)', () => {
    expect(referenceDateOf({ demo: false, referenceDate: '2025-03-05' })).toBeNull()
  })

  it('falls back to the configured demo flag before /api/meta answers', () => {
    expect(referenceDateOf(null)).toBe(appConfig.demo.enabled ? appConfig.demo.referenceDate : null)
  })
})
