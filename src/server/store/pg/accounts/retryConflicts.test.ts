import { describe, expect, it } from 'vitest'
import { retryConflicts } from './retryConflicts'

const pgError = (code: string) => Object.assign(new Error(code), { code })

describe('retryConflicts', () => {
  it('runs a transaction again after a deadlock or a serialisation failure', async () => {
    const codes = ['40P01', '40001']
    let runs = 0
    const out = await retryConflicts(async () => {
      runs++
      const code = codes.shift()
      if (code) throw pgError(code)
      return 'done'
    })
    expect([out, runs]).toEqual(['done', 3])
  })

  it('gives up after the last try, and never retries another error', async () => {
    let runs = 0
    await expect(
      retryConflicts(async () => {
        runs++
        throw pgError('40P01')
      }, 3),
    ).rejects.toThrow('40P01')
    expect(runs).toBe(3)
    runs = 0
    await expect(
      retryConflicts(async () => {
        runs++
        throw pgError('23505')
      }),
    ).rejects.toThrow('23505')
    expect(runs).toBe(1)
  })
})
