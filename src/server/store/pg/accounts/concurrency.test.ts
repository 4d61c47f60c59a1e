import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ThrottleRule } from '../../identityTokenStore'
import { pgDatabase, type PgDatabase } from '../pgDatabase'
import { testPg, type TestPg } from '../testing/pgTestDatabase'
import { memberRecord } from '../../testing/memberRecord'
import { pgAccountStores, type PgAccountStores } from './index'

// Two servers (two pools) on one database hitting the same member at once: every counter counts
// exactly as one server would, every single-use secret is used once.

const MIN = 60_000
let t: TestPg
const pools: PgDatabase[] = []
let a: PgAccountStores
let b: PgAccountStores

beforeAll(async () => {
  t = await testPg()
  pools.push(pgDatabase({ url: t.url, max: 6 }), pgDatabase({ url: t.url, max: 6 }))
  a = pgAccountStores(pools[0] as PgDatabase)
  b = pgAccountStores(pools[1] as PgDatabase)
  await a.members.insertMember(memberRecord('m-a', { email: 'ann@example.com', name: 'Ann' }))
})
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()))
  await t.drop()
})

/** `n` calls spread over both servers, all started together. */
const together = <T>(n: number, call: (s: PgAccountStores, i: number) => Promise<T>): Promise<T[]> =>
  Promise.all(Array.from({ length: n }, (_, i) => call(i % 2 === 0 ? a : b, i)))

const awaited = async <T>(v: T | Promise<T>): Promise<T> => v

describe('accounts stores on one PostgreSQL database from two servers at once', () => {
  it('a wrong password through both counts toward one lockout: 10 attempts count, the rest are refused', async () => {
    const email: ThrottleRule = { key: 'email:ann', max: 10, windowMs: 15 * MIN, lockMs: 15 * MIN }
    const ip = (i: number): ThrottleRule => ({
      key: `ip:${i % 3}`,
      max: 1000,
      windowMs: 15 * MIN,
      lockMs: MIN,
    })
    const outcomes = await together(40, (s, i) =>
      awaited(s.tokens.throttleAttempt([email.key, ip(i).key], [email, ip(i)], 1000)),
    )
    const counted = outcomes.filter((o) => o.lockedFor === 0)
    expect(counted).toHaveLength(10)
    expect(counted.filter((o) => o.locked.includes('email:ann'))).toHaveLength(1)
    expect(outcomes.filter((o) => o.lockedFor === 15 * MIN)).toHaveLength(30)
    expect(await a.tokens.throttle('email:ann')).toEqual({
      failures: 0,
      windowStart: 1000,
      lockedUntil: 1000 + 15 * MIN,
    })
    // The per-address counters counted exactly the 10 attempts that were not refused.
    const ipFailures = await Promise.all(
      [0, 1, 2].map(async (k) => (await b.tokens.throttle(`ip:${k}`))?.failures ?? 0),
    )
    expect(ipFailures.reduce((x, y) => x + y, 0)).toBe(10)
  })

  it('counts every failure of parallel attempts below the limit', async () => {
    const rule: ThrottleRule = { key: 'count-only', max: 1000, windowMs: 15 * MIN, lockMs: MIN }
    await together(30, (s) => awaited(s.tokens.throttleAttempt([], [rule], 5000)))
    expect(await a.tokens.throttle('count-only')).toEqual({ failures: 30, windowStart: 5000, lockedUntil: 0 })
  })

  it('an SMS code takes exactly maxAttempts attempts, however many arrive at once', async () => {
    await a.tokens.replaceOtp('m-a', 'hash', 'salt', 1000, 60_000)
    const tries = await together(30, (s) => awaited(s.tokens.takeOtpAttempt('m-a', 5, 2000)))
    const taken = tries.filter((o) => o !== null)
    expect(taken.map((o) => o?.attempts).sort()).toEqual([1, 2, 3, 4, 5])
    expect((await b.tokens.latestOtp('m-a'))?.attempts).toBe(5)
  })

  it('codes sent at once leave one usable code, and it is used once', async () => {
    await together(10, (s, i) => awaited(s.tokens.replaceOtp('m-a', `h${i}`, 's', 3000 + i, 60_000)))
    const codes = await t.db.query<{ n: number }>(
      "SELECT count(*) AS n FROM identity_otp_codes WHERE member_id = 'm-a' AND consumed_at IS NULL",
    )
    expect(codes).toEqual([{ n: 1 }])
    const latest = await a.tokens.latestOtp('m-a')
    const used = await together(10, (s) => awaited(s.tokens.consumeOtp(latest?.id ?? 0, 4000)))
    expect(used.filter(Boolean)).toHaveLength(1)
  })

  it('sends of an intermediate session stop at the maximum; single-use secrets are used once', async () => {
    await a.tokens.insertIntermediate('ih', {
      memberId: 'm-a',
      factors: [],
      sessionMinutes: null,
      createdAt: 0,
      expiresAt: 1e9,
    })
    const sends = await together(20, (s) => awaited(s.tokens.countIntermediateSend('ih', 3)))
    expect(sends.filter(Boolean)).toHaveLength(3)
    expect((await b.tokens.intermediate('ih'))?.sends).toBe(3)
    expect(
      (await together(10, (s) => awaited(s.tokens.consumeIntermediate('ih', 5)))).filter(Boolean),
    ).toHaveLength(1)
    await a.tokens.insertResetToken('rt', 'm-a', null, 0, 1e9)
    expect(
      (await together(10, (s) => awaited(s.tokens.useResetToken('rt', 5)))).filter(Boolean),
    ).toHaveLength(1)
  })

  it('an alert raised by both starts one episode; a job is claimed by one; one acknowledgement is audited', async () => {
    const raised = await together(10, (s) => awaited(s.delivery.transition(['r:x'], [], 100)))
    expect(raised.filter((m) => m.size > 0)).toHaveLength(1)
    expect([...(await a.delivery.activeEpisodes())]).toEqual([['r:x', 1]])

    const id = await awaited(
      a.delivery.addJob(
        {
          memberId: 'm-a',
          channel: 'sms',
          kind: 'alert',
          alertIds: ['r:x'],
          recipient: '+1',
          subject: null,
          text: 't',
          link: 'l',
          nextAt: 0,
        },
        0,
      ),
    )
    expect((await together(10, (s) => awaited(s.delivery.claimJob(id, 1, 10)))).filter(Boolean)).toHaveLength(
      1,
    )

    const times = await together(10, (s, i) =>
      awaited(s.acks.acknowledge('r:x', { memberId: 'm-a', ip: null }, 1000 + i)),
    )
    expect(new Set(times).size).toBe(1)
    const audited = await t.db.query("SELECT 1 FROM identity_audit WHERE event = 'alert.acknowledged'")
    expect(audited).toHaveLength(1)
  })

  it('a session revoked through one server is refused by the other at once', async () => {
    await a.members.insertSession(
      {
        sessionId: 's-1',
        memberId: 'm-a',
        factors: [],
        startedAt: 0,
        lastAccessedAt: 0,
        expiresAt: 1e9,
        revokedAt: null,
      },
      'token-hash',
    )
    expect((await b.members.sessionByTokenHash('token-hash'))?.revokedAt).toBeNull()
    expect(await a.members.revokeSession('s-1', 50)).toBe(true)
    expect((await b.members.sessionByTokenHash('token-hash'))?.revokedAt).toBe(50)
    expect(await b.members.touchSession('s-1', 60, 2e9)).toBe(false)
  })
})
