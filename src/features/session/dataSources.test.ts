import { afterEach, describe, expect, it, vi } from 'vitest'
import { initDataSources, onSessionStart, resetDataSources } from './dataSources'

afterEach(() => resetDataSources())

describe('dataSources', () => {
  it('runs registered initialisers when a session starts, and late ones at once', () => {
    const early = vi.fn()
    const stop = onSessionStart(early)
    expect(early).not.toHaveBeenCalled()
    initDataSources()
    expect(early).toHaveBeenCalledTimes(1)
    const late = vi.fn()
    const stopLate = onSessionStart(late)
    expect(late).toHaveBeenCalledTimes(1)
    stop()
    stopLate()
  })

  it('logs a failing initialiser and still runs the others', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    const ok = vi.fn()
    const a = onSessionStart(() => {
      throw new Error('no wind')
    })
    const b = onSessionStart(ok)
    initDataSources()
    expect(ok).toHaveBeenCalled()
    expect(error).toHaveBeenCalled()
    a()
    b()
  })
})
