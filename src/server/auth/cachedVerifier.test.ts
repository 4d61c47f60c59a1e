import { describe, expect, it } from 'vitest'
import { cachedVerifier } from './cachedVerifier'
import type { SessionVerifier, VerifiedSession } from './sessionVerifier'

const session = (expiresAt: number): VerifiedSession => ({
  memberId: 'm',
  sessionId: 's',
  organizationId: 'o',
  roles: ['member'],
  expiresAt: new Date(expiresAt),
})

function harness() {
  const state = { stamp: 1, now: 1_000, live: new Set(['token-a', 'jwt.x.y']), calls: 0 }
  const inner: SessionVerifier = {
    async verify(credential) {
      state.calls++
      return state.live.has(credential) ? session(5_000) : null
    },
  }
  const verifier = cachedVerifier(inner, {
    stamp: () => state.stamp,
    now: () => state.now,
    cacheable: (c) => !c.includes('.'),
  })
  return { state, verifier }
}

describe('cachedVerifier', () => {
  it('answers repeats without asking the store while nothing changed', async () => {
    const { state, verifier } = harness()
    expect(await verifier.verify('token-a')).toMatchObject({ memberId: 'm' })
    expect(await verifier.verify('token-a')).toMatchObject({ memberId: 'm' })
    expect(state.calls).toBe(1)
  })

  it('refuses a revoked session at once: any change to the store empties the cache', async () => {
    const { state, verifier } = harness()
    await verifier.verify('token-a')
    state.live.delete('token-a')
    state.stamp++
    expect(await verifier.verify('token-a')).toBeNull()
    expect(state.calls).toBe(2)
  })

  it('never answers an expired session from the cache', async () => {
    const { state, verifier } = harness()
    await verifier.verify('token-a')
    state.now = 5_000
    state.live.delete('token-a')
    expect(await verifier.verify('token-a')).toBeNull()
  })

  it('does not keep credentials it may not cache, failures, or reads raced by a write', async () => {
    const { state, verifier } = harness()
    await verifier.verify('jwt.x.y')
    await verifier.verify('jwt.x.y')
    expect(state.calls).toBe(2)
    await verifier.verify('forged')
    await verifier.verify('forged')
    expect(state.calls).toBe(4)
    const racing: SessionVerifier = {
      async verify() {
        state.stamp++
        return session(5_000)
      },
    }
    const raced = cachedVerifier(racing, { stamp: () => state.stamp, now: () => 0, cacheable: () => true })
    const before = state.stamp
    await raced.verify('t')
    await raced.verify('t')
    expect(state.stamp).toBe(before + 2)
  })
})

describe('cachedVerifier without a change stamp (PostgreSQL: several servers on one database)', () => {
  it('asks the store on every request, so a revoke by another server is refused at once', async () => {
    const live = new Set(['token-a'])
    let calls = 0
    const inner: SessionVerifier = {
      async verify(credential) {
        calls++
        return live.has(credential) ? session(5_000) : null
      },
    }
    const verifier = cachedVerifier(inner, { now: () => 1_000, cacheable: () => true })
    expect(await verifier.verify('token-a')).toMatchObject({ memberId: 'm' })
    expect(await verifier.verify('token-a')).toMatchObject({ memberId: 'm' })
    expect(calls).toBe(2)
    live.delete('token-a')
    expect(await verifier.verify('token-a')).toBeNull()
  })
})
