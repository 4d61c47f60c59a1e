import Database from 'better-sqlite3'
import { beforeEach, describe, expect, it } from 'vitest'
import { createIdentityTokenStore } from '../store/identityTokenStore'
import { ACCOUNTS_MIGRATIONS_DIR } from '../store/accountsDb'
import { migrate } from '../store/migrate'
import { createThrottle, type Throttle } from './throttle'

const MIN = 60_000
let throttle: Throttle

beforeEach(() => {
  const db = new Database(':memory:')
  migrate(db, ACCOUNTS_MIGRATIONS_DIR)
  throttle = createThrottle(createIdentityTokenStore(db), { windowMinutes: 15, lockMinutes: 15 })
})

describe('throttle', () => {
  it('locks on the 10th failure inside the window, for 15 minutes', () => {
    for (let i = 0; i < 9; i++) expect(throttle.fail('k', 10, i * MIN)).toBe(false)
    expect(throttle.lockedFor('k', 9 * MIN)).toBe(0)
    expect(throttle.fail('k', 10, 10 * MIN)).toBe(true)
    expect(throttle.lockedFor('k', 10 * MIN)).toBe(15 * MIN)
    expect(throttle.lockedFor('k', 25 * MIN - 1)).toBe(1)
    expect(throttle.lockedFor('k', 25 * MIN)).toBe(0)
  })

  it('starts a new window once the old one has passed', () => {
    for (let i = 0; i < 9; i++) throttle.fail('k', 10, 0)
    expect(throttle.fail('k', 10, 15 * MIN)).toBe(false)
    expect(throttle.lockedFor('k', 15 * MIN)).toBe(0)
  })

  it('keeps keys apart and clears on request', () => {
    for (let i = 0; i < 10; i++) throttle.fail('a', 10, 0)
    expect(throttle.lockedFor('a', 0)).toBeGreaterThan(0)
    expect(throttle.lockedFor('b', 0)).toBe(0)
    throttle.clear('a')
    expect(throttle.lockedFor('a', 0)).toBe(0)
  })
})
