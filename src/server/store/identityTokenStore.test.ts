import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openAccountsDb } from './accountsDb'
import { createIdentityStore } from './identityStore'
import { createIdentityTokenStore, type IdentityTokenStore, type ThrottleRule } from './identityTokenStore'
import { memberRecord } from './testing/memberRecord'

const MIN = 60_000
const rule = (key: string, max: number): ThrottleRule => ({ key, max, windowMs: 15 * MIN, lockMs: 15 * MIN })

let dir: string
let dbs: Database.Database[]
/** A token store on its own connection to the one accounts file (as another server or the CLI has). */
const open = (): IdentityTokenStore => {
  const db = openAccountsDb(dir)
  dbs.push(db)
  return createIdentityTokenStore(db)
}

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-tokens-'))
  dbs = []
  const db = openAccountsDb(dir)
  dbs.push(db)
  await createIdentityStore(db).insertMember(memberRecord('m', { organizationId: 'o', name: 'M' }))
})

afterEach(() => {
  for (const db of dbs) db.close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('throttleAttempt', () => {
  it('counts failures through every connection toward one lockout', async () => {
    const a = open()
    const b = open()
    for (let i = 0; i < 4; i++) {
      expect(await a.throttleAttempt(['k'], [rule('k', 10)], i)).toEqual({ lockedFor: 0, locked: [] })
      expect(await b.throttleAttempt(['k'], [rule('k', 10)], i)).toEqual({ lockedFor: 0, locked: [] })
    }
    expect(await a.throttle('k')).toMatchObject({ failures: 8 })
    await b.throttleAttempt([], [rule('k', 10)], 9)
    expect(await a.throttleAttempt(['k'], [rule('k', 10)], 10)).toEqual({ lockedFor: 0, locked: ['k'] })
    // Locked for both: refused, and nothing more is counted.
    expect(await b.throttleAttempt(['k'], [rule('k', 10)], 11)).toEqual({
      lockedFor: 15 * MIN - 1,
      locked: [],
    })
    expect(await a.lockedFor(['k'], 11)).toBe(15 * MIN - 1)
    expect(await a.throttle('k')).toEqual({ failures: 0, windowStart: 10, lockedUntil: 10 + 15 * MIN })
  })

  it('answers the longest lock of the checked keys and forgets a cleared one', async () => {
    const a = open()
    await a.throttleAttempt([], [rule('short', 1)], 0)
    await a.throttleAttempt([], [{ ...rule('long', 1), lockMs: 60 * MIN }], 0)
    expect(await a.lockedFor(['short', 'long', 'none'], MIN)).toBe(59 * MIN)
    await open().clearThrottle('long')
    expect(await a.lockedFor(['short', 'long'], MIN)).toBe(14 * MIN)
    expect(await a.lockedFor([], MIN)).toBe(0)
  })
})

describe('takeOtpAttempt', () => {
  it('counts attempts on the latest code through every connection, never past the maximum', async () => {
    const a = open()
    const b = open()
    await a.replaceOtp('m', 'old', 's', 0, 10 * MIN)
    await a.replaceOtp('m', 'hash', 'salt', 1, 10 * MIN, '+15055550100')
    expect(await a.takeOtpAttempt('m', 3, 2)).toMatchObject({
      codeHash: 'hash',
      attempts: 1,
      phone: '+15055550100',
    })
    expect(await b.takeOtpAttempt('m', 3, 2)).toMatchObject({ attempts: 2 })
    expect(await a.takeOtpAttempt('m', 3, 2)).toMatchObject({ attempts: 3 })
    expect(await b.takeOtpAttempt('m', 3, 2)).toBeNull()
    expect(await a.latestOtp('m')).toMatchObject({ attempts: 3, consumedAt: null })
  })

  it('answers null for a used or expired code, or a member without one', async () => {
    const a = open()
    expect(await a.takeOtpAttempt('m', 5, 0)).toBeNull()
    await a.replaceOtp('m', 'hash', 'salt', 0, MIN)
    expect(await a.takeOtpAttempt('m', 5, MIN)).toBeNull() // expired
    expect(await a.latestOtp('m')).toMatchObject({ attempts: 0 })
    await a.replaceOtp('m', 'hash2', 'salt', MIN, 10 * MIN)
    const otp = await a.takeOtpAttempt('m', 5, MIN)
    expect(await open().consumeOtp(otp?.id ?? 0, MIN)).toBe(true)
    expect(await a.consumeOtp(otp?.id ?? 0, MIN)).toBe(false)
    expect(await a.takeOtpAttempt('m', 5, MIN)).toBeNull()
  })
})

describe('countIntermediateSend', () => {
  it('counts sends up to the cap, through every connection', async () => {
    const a = open()
    const b = open()
    await a.insertIntermediate('h', {
      memberId: 'm',
      factors: [],
      sessionMinutes: null,
      createdAt: 0,
      expiresAt: MIN,
    })
    expect(await a.countIntermediateSend('h', 2)).toBe(true)
    expect(await b.countIntermediateSend('h', 2)).toBe(true)
    expect(await a.countIntermediateSend('h', 2)).toBe(false)
    expect(await b.intermediate('h')).toMatchObject({ sends: 2 })
    expect(await a.countIntermediateSend('unknown', 2)).toBe(false)
  })
})
