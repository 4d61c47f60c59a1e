import { beforeEach, describe, expect, it } from 'vitest'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from '../store/pg/accounts/testing/bothAccountStores'
import { createThrottle, type Throttle } from './throttle'

const MIN = 60_000

// The same assertions over the SQLite and the PostgreSQL token store (issue #19).
describe.each(ACCOUNT_STORE_KINDS)('throttle (%s)', (kind) => {
  const t = accountStoresFor(kind)
  let throttle: Throttle
  beforeEach(() => {
    throttle = createThrottle(t.stores.tokens, { windowMinutes: 15, lockMinutes: 15 })
  })
  const fail = async (key: string, max: number, now: number) =>
    (await throttle.fail([{ key, max }], now)).length > 0
  const lockedFor = (key: string, now: number) => throttle.lockedFor([key], now)

  it('locks on the 10th failure inside the window, for 15 minutes', async () => {
    for (let i = 0; i < 9; i++) expect(await fail('k', 10, i * MIN)).toBe(false)
    expect(await lockedFor('k', 9 * MIN)).toBe(0)
    expect(await fail('k', 10, 10 * MIN)).toBe(true)
    expect(await lockedFor('k', 10 * MIN)).toBe(15 * MIN)
    expect(await lockedFor('k', 25 * MIN - 1)).toBe(1)
    expect(await lockedFor('k', 25 * MIN)).toBe(0)
  })

  it('starts a new window once the old one has passed', async () => {
    for (let i = 0; i < 9; i++) await fail('k', 10, 0)
    expect(await fail('k', 10, 15 * MIN)).toBe(false)
    expect(await lockedFor('k', 15 * MIN)).toBe(0)
  })

  it('keeps keys apart and clears on request', async () => {
    for (let i = 0; i < 10; i++) await fail('a', 10, 0)
    expect(await lockedFor('a', 0)).toBeGreaterThan(0)
    expect(await lockedFor('b', 0)).toBe(0)
    expect(await throttle.lockedFor(['b', 'a'], 0)).toBe(15 * MIN)
    await throttle.clear('a')
    expect(await lockedFor('a', 0)).toBe(0)
  })

  it('counts every counter of an attempt and names the ones it locked', async () => {
    const counts = [
      { key: 'here', max: 2 },
      { key: 'everywhere', max: 3 },
    ]
    expect(await throttle.attempt([], counts, 0)).toEqual({ lockedFor: 0, locked: [] })
    expect(await throttle.attempt([], counts, 1)).toEqual({ lockedFor: 0, locked: ['here'] })
    expect(await throttle.attempt([], counts.slice(1), 2)).toEqual({ lockedFor: 0, locked: ['everywhere'] })
  })

  it('refuses an attempt while a checked key is locked, and counts nothing then', async () => {
    for (let i = 0; i < 3; i++) await fail('locked', 3, 0)
    const outcome = await throttle.attempt(['other', 'locked'], [{ key: 'other', max: 1 }], MIN)
    expect(outcome).toEqual({ lockedFor: 14 * MIN, locked: [] })
    expect(await lockedFor('other', MIN)).toBe(0)
    expect(await throttle.attempt(['other'], [{ key: 'other', max: 1 }], MIN)).toEqual({
      lockedFor: 0,
      locked: ['other'],
    })
  })
  describe('reserved attempts (only failures stay counted)', () => {
    const counts = [
      { key: 'here', max: 2 },
      { key: 'everywhere', max: 3 },
    ]

    it('gives a success its slots back, so successes never lock', async () => {
      for (let i = 0; i < 20; i++) {
        expect(await throttle.reserve(['here', 'everywhere'], counts, i)).toBe(0)
        expect(await throttle.settle(counts, i, false, i)).toEqual([])
      }
      expect(await t.stores.tokens.throttle('everywhere')).toMatchObject({ failures: 0, lockedUntil: 0 })
    })

    it('locks on the failure that fills the window, and refuses attempts while it is locked', async () => {
      expect(await throttle.reserve([], counts, 0)).toBe(0)
      expect(await throttle.settle(counts, 0, true, 1)).toEqual([])
      expect(await throttle.reserve([], counts, 2)).toBe(0)
      expect(await throttle.settle(counts, 2, true, 3)).toEqual(['here'])
      expect(await throttle.reserve(['here', 'everywhere'], counts, 4)).toBe(15 * MIN - 1)
      expect(await t.stores.tokens.throttle('everywhere')).toMatchObject({ failures: 2, lockedUntil: 0 })
    })

    it('refuses a reservation for a second while every slot is held by attempts in flight', async () => {
      expect(await throttle.reserve([], counts, 0)).toBe(0)
      expect(await throttle.reserve([], counts, 0)).toBe(0)
      // 'here' has both slots in flight: refused, and nothing counted on 'everywhere'.
      expect(await throttle.reserve([], counts, 0)).toBe(1000)
      expect(await t.stores.tokens.throttle('everywhere')).toMatchObject({ failures: 2 })
      await throttle.settle(counts, 0, false, 1)
      expect(await throttle.reserve([], counts, 1)).toBe(0)
    })

    it('counts a failure afresh when its window was reset while it was in flight', async () => {
      expect(await throttle.reserve([], counts, 0)).toBe(0)
      await throttle.clear('here')
      expect(await throttle.settle(counts, 0, true, 1)).toEqual([])
      expect(await t.stores.tokens.throttle('here')).toMatchObject({ failures: 1, windowStart: 1 })
      // A success whose window has passed gives nothing back.
      expect(await throttle.reserve([], counts, 2)).toBe(0)
      await throttle.settle(counts, 2, false, 16 * MIN)
      expect(await t.stores.tokens.throttle('here')).toMatchObject({ failures: 2 })
    })
  })
})
