import { afterEach, describe, expect, it, vi } from 'vitest'

afterEach(() => {
  vi.useRealTimers()
  vi.resetModules()
})

describe('whenMapDrawn', () => {
  it('waits for the first drawn tile', async () => {
    const { markMapDrawn, whenMapDrawn } = await import('./firstDraw')
    let done = false
    const waiting = whenMapDrawn(60_000).then(() => {
      done = true
    })
    await Promise.resolve()
    expect(done).toBe(false)
    markMapDrawn()
    await waiting
    expect(done).toBe(true)
  })

  it('gives up waiting after the fallback delay', async () => {
    vi.useFakeTimers()
    const { whenMapDrawn } = await import('./firstDraw')
    let done = false
    const waiting = whenMapDrawn(3000).then(() => {
      done = true
    })
    await vi.advanceTimersByTimeAsync(2999)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    await waiting
    expect(done).toBe(true)
  })
})
