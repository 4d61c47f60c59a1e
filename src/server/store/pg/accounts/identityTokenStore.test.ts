import { describe, expect, it } from 'vitest'
import type { ThrottleRule } from '../../identityTokenStore'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from './testing/bothAccountStores'
import { memberRecord } from '../../testing/memberRecord'

const MIN = 60_000
const rule = (key: string, max = 10): ThrottleRule => ({ key, max, windowMs: 15 * MIN, lockMs: 15 * MIN })

const ann = memberRecord('m-a', { email: 'ann@example.com', name: 'Ann' })

describe.each(ACCOUNT_STORE_KINDS)('IdentityTokenStore (%s)', (kind) => {
  const t = accountStoresFor(kind)

  it('keeps intermediate sessions: counted sends up to the maximum, single use', async () => {
    const { members, tokens } = t.stores
    await members.insertMember(ann)
    expect(await tokens.intermediate('ih')).toBeNull()
    await tokens.insertIntermediate('ih', {
      memberId: 'm-a',
      factors: [],
      sessionMinutes: 60,
      createdAt: 1000,
      expiresAt: 2000,
    })
    expect(await tokens.intermediate('ih')).toEqual({
      memberId: 'm-a',
      factors: [],
      sessionMinutes: 60,
      sends: 0,
      createdAt: 1000,
      expiresAt: 2000,
      consumedAt: null,
    })
    expect(await tokens.countIntermediateSend('ih', 2)).toBe(true)
    expect(await tokens.countIntermediateSend('ih', 2)).toBe(true)
    expect(await tokens.countIntermediateSend('ih', 2)).toBe(false)
    expect(await tokens.countIntermediateSend('nope', 2)).toBe(false)
    expect((await tokens.intermediate('ih'))?.sends).toBe(2)
    expect(await tokens.consumeIntermediate('ih', 1500)).toBe(true)
    expect(await tokens.consumeIntermediate('ih', 1600)).toBe(false)
    expect((await tokens.intermediate('ih'))?.consumedAt).toBe(1500)
  })

  it('keeps one usable SMS code per member; attempts are counted up to the maximum', async () => {
    const { members, tokens } = t.stores
    await members.insertMember(ann)
    expect(await tokens.latestOtp('m-a')).toBeNull()
    expect(await tokens.takeOtpAttempt('m-a', 3, 0)).toBeNull()
    await tokens.replaceOtp('m-a', 'c1', 's1', 1000, 5000)
    const first = await tokens.latestOtp('m-a')
    await tokens.replaceOtp('m-a', 'c2', 's2', 2000, 6000, '+15550001')
    const second = await tokens.latestOtp('m-a')
    expect(second).toMatchObject({
      memberId: 'm-a',
      codeHash: 'c2',
      salt: 's2',
      attempts: 0,
      expiresAt: 6000,
      consumedAt: null,
      phone: '+15550001',
    })
    expect(second?.id).toBeGreaterThan(first?.id ?? Infinity)
    // The earlier code was retired: it can no longer be consumed.
    expect(await tokens.consumeOtp(first?.id ?? 0, 2500)).toBe(false)

    expect(await tokens.takeOtpAttempt('m-a', 3, 3000)).toMatchObject({ codeHash: 'c2', attempts: 1 })
    expect(await tokens.takeOtpAttempt('m-a', 3, 3000)).toMatchObject({ attempts: 2 })
    expect(await tokens.takeOtpAttempt('m-a', 3, 3000)).toMatchObject({ attempts: 3 })
    expect(await tokens.takeOtpAttempt('m-a', 3, 3000)).toBeNull()
    expect((await tokens.latestOtp('m-a'))?.attempts).toBe(3)

    await tokens.replaceOtp('m-a', 'c3', 's3', 4000, 7000)
    // Expired: no attempt.
    expect(await tokens.takeOtpAttempt('m-a', 3, 7000)).toBeNull()
    const third = await tokens.latestOtp('m-a')
    expect(third?.phone).toBeNull()
    expect(await tokens.consumeOtp(third?.id ?? 0, 4500)).toBe(true)
    expect(await tokens.consumeOtp(third?.id ?? 0, 4600)).toBe(false)
    // Used: no attempt.
    expect(await tokens.takeOtpAttempt('m-a', 3, 5000)).toBeNull()
    expect((await tokens.latestOtp('m-a'))?.consumedAt).toBe(4500)
  })

  it('keeps reset tokens: single use, and a reset ends every other link of the member', async () => {
    const { members, tokens } = t.stores
    await members.insertMember(ann)
    await tokens.insertResetToken('r1', 'm-a', 'challenge', 1000, 2000)
    await tokens.insertResetToken('r2', 'm-a', null, 1000, 2000)
    await tokens.insertResetToken('r3', 'm-a', null, 1000, 2000)
    expect(await tokens.resetToken('r1')).toEqual({
      memberId: 'm-a',
      codeChallenge: 'challenge',
      expiresAt: 2000,
      usedAt: null,
    })
    expect(await tokens.resetToken('nope')).toBeNull()
    expect(await tokens.useResetToken('r1', 1500)).toBe(true)
    expect(await tokens.useResetToken('r1', 1600)).toBe(false)
    expect(await tokens.useMemberResetTokens('m-a', 1700)).toBe(2)
    expect(await tokens.useMemberResetTokens('m-a', 1800)).toBe(0)
    expect((await tokens.resetToken('r3'))?.usedAt).toBe(1700)
  })

  it('locks a key on the 10th failure inside the window, for 15 minutes', async () => {
    const { tokens } = t.stores
    for (let i = 0; i < 9; i++)
      expect(await tokens.throttleAttempt(['k'], [rule('k')], i * MIN)).toEqual({ lockedFor: 0, locked: [] })
    expect(await tokens.throttle('k')).toEqual({ failures: 9, windowStart: 0, lockedUntil: 0 })
    expect(await tokens.lockedFor(['k'], 9 * MIN)).toBe(0)
    expect(await tokens.throttleAttempt(['k'], [rule('k')], 10 * MIN)).toEqual({
      lockedFor: 0,
      locked: ['k'],
    })
    expect(await tokens.throttle('k')).toEqual({ failures: 0, windowStart: 10 * MIN, lockedUntil: 25 * MIN })
    expect(await tokens.lockedFor(['k'], 10 * MIN)).toBe(15 * MIN)
    expect(await tokens.lockedFor(['other', 'k'], 25 * MIN - 1)).toBe(1)
    expect(await tokens.lockedFor(['k'], 25 * MIN)).toBe(0)
    // Locked: refused and nothing counted, on any key of the attempt.
    expect(await tokens.throttleAttempt(['k', 'ip'], [rule('k'), rule('ip')], 11 * MIN)).toEqual({
      lockedFor: 14 * MIN,
      locked: [],
    })
    expect(await tokens.throttle('ip')).toBeNull()
    expect(await tokens.throttle('k')).toEqual({ failures: 0, windowStart: 10 * MIN, lockedUntil: 25 * MIN })
  })

  it('starts a new window once the old one has passed, counts every rule, keeps keys apart', async () => {
    const { tokens } = t.stores
    for (let i = 0; i < 9; i++) await tokens.throttleAttempt([], [rule('k')], 0)
    expect(await tokens.throttleAttempt([], [rule('k')], 15 * MIN)).toEqual({ lockedFor: 0, locked: [] })
    expect(await tokens.throttle('k')).toEqual({ failures: 1, windowStart: 15 * MIN, lockedUntil: 0 })
    // Two rules in one attempt: the one at its maximum locks, the other counts.
    expect(await tokens.throttleAttempt(['a', 'b'], [rule('a', 1), rule('b', 3)], 0)).toEqual({
      lockedFor: 0,
      locked: ['a'],
    })
    expect(await tokens.throttle('b')).toEqual({ failures: 1, windowStart: 0, lockedUntil: 0 })
    expect(await tokens.lockedFor(['a'], 0)).toBe(15 * MIN)
    expect(await tokens.lockedFor(['b'], 0)).toBe(0)
    await tokens.clearThrottle('a')
    expect(await tokens.lockedFor(['a'], 0)).toBe(0)
    expect(await tokens.throttle('a')).toBeNull()
    expect(await tokens.throttleAttempt([], [], 0)).toEqual({ lockedFor: 0, locked: [] })
    // A key holding a NUL (from an e-mail address a client sent) counts like any other.
    for (let i = 0; i < 2; i++) await tokens.throttleAttempt(['e:x\0'], [rule('e:x\0', 3)], 0)
    expect(await tokens.throttleAttempt(['e:x\0'], [rule('e:x\0', 3)], 0)).toEqual({
      lockedFor: 0,
      locked: ['e:x\0'],
    })
    expect(await tokens.lockedFor(['e:x\0'], 0)).toBe(15 * MIN)
  })
})
