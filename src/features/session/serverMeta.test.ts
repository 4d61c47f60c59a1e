import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseServerMeta, resetServerMeta, serverMeta, settledServerMeta } from './serverMeta'

afterEach(() => {
  resetServerMeta()
  vi.restoreAllMocks()
})

describe('parseServerMeta', () => {
  it('reads the demo flag and the reference date', () => {
    expect(parseServerMeta({ demo: true, referenceDate: '2025-03-05' })).toEqual({
      demo: true,
      referenceDate: '2025-03-05',
    })
  })

  it('turns missing or mistyped fields into null', () => {
    expect(parseServerMeta({ demo: 'yes', referenceDate: 5 })).toEqual({ demo: null, referenceDate: null })
    expect(parseServerMeta(null)).toEqual({ demo: null, referenceDate: null })
  })
})

describe('serverMeta', () => {
  it('asks the server once and remembers the answer', async () => {
    const fetchImpl = vi.fn(async () => Response.json({ demo: false, referenceDate: null }))
    expect(settledServerMeta()).toBeUndefined()
    const [a, b] = await Promise.all([serverMeta(fetchImpl), serverMeta(fetchImpl)])
    expect(a).toEqual({ demo: false, referenceDate: null })
    expect(b).toBe(a)
    expect(settledServerMeta()).toBe(a)
    expect(fetchImpl).toHaveBeenCalledTimes(1)
    expect(fetchImpl).toHaveBeenCalledWith('/api/meta')
  })

  it('answers null when the server fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const fetchImpl = vi.fn(async () => new Response('nope', { status: 503 }))
    expect(await serverMeta(fetchImpl)).toBeNull()
    expect(settledServerMeta()).toBeNull()
  })
})
