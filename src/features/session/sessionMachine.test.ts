import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { appConfig } from '../../shared/config'
import { sessionMachine, type SessionInfo } from './sessionMachine'

const minute = 60_000
const base = appConfig.session.backoff.baseMs

function session(minutesLeft: number): SessionInfo {
  return { sessionId: 's-1', memberId: 'm-1', expiresAt: Date.now() + minutesLeft * minute }
}

const unrecoverable = () => Object.assign(new Error('gone'), { error_type: 'session_not_found' })
const transient = () => Object.assign(new Error('busy'), { error_type: 'internal_server_error' })

function harness(
  initial: SessionInfo | null,
  reauth: () => Promise<SessionInfo | null>,
  revoke = async () => {},
) {
  const calls = {
    reauth: 0,
    revoke: 0,
    reload: 0,
    initDataSources: 0,
    announceLogout: 0,
    clearLocal: 0,
    logoutFailed: 0,
  }
  const machine = sessionMachine.provide({
    actors: {
      reauthenticate: fromPromise(async () => {
        calls.reauth++
        return reauth()
      }),
      revoke: fromPromise(async () => {
        calls.revoke++
        return revoke()
      }),
    },
    actions: {
      reloadPage: () => void calls.reload++,
      initDataSources: () => void calls.initDataSources++,
      announceLogout: () => void calls.announceLogout++,
      clearLocalSession: () => void calls.clearLocal++,
      logLogoutFailed: () => void calls.logoutFailed++,
    },
  })
  const actor = createActor(machine, { input: { session: initial } })
  actor.start()
  return { actor, calls }
}

describe('sessionMachine', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(new Date('2025-03-05T12:00:00Z'))
  })
  afterEach(() => {
    vi.useRealTimers()
    vi.restoreAllMocks()
  })

  it('starts logged out without a session and does not reload', () => {
    const { actor, calls } = harness(null, async () => null)
    expect(actor.getSnapshot().value).toBe('loggedOut')
    expect(calls.reload).toBe(0)
    expect(calls.initDataSources).toBe(0)
  })

  it('starts logged in with a session and initialises the data sources', () => {
    const { actor, calls } = harness(session(60), async () => session(60))
    expect(actor.getSnapshot().matches('loggedIn')).toBe(true)
    expect(calls.initDataSources).toBe(1)
  })

  it('a new session logs in and initialises the data sources', () => {
    const { actor, calls } = harness(null, async () => null)
    actor.send({ type: 'SESSION_CHANGED', session: session(60) })
    expect(actor.getSnapshot().matches('loggedIn')).toBe(true)
    expect(calls.initDataSources).toBe(1)
  })

  it('a change to no session logs out and reloads the page', () => {
    const { actor, calls } = harness(session(60), async () => session(60))
    actor.send({ type: 'SESSION_CHANGED', session: null })
    expect(actor.getSnapshot().value).toBe('loggedOut')
    expect(actor.getSnapshot().context.session).toBeNull()
    expect(calls.reload).toBe(1)
  })

  it('counts as expiring soon under 5 minutes, not before', async () => {
    const { actor } = harness(session(7), async () => session(7))
    expect(actor.getSnapshot().matches({ loggedIn: { expiry: 'fresh' } })).toBe(true)
    await vi.advanceTimersByTimeAsync(2 * minute - 1)
    expect(actor.getSnapshot().matches({ loggedIn: { expiry: 'fresh' } })).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    expect(actor.getSnapshot().matches({ loggedIn: { expiry: 'expiringSoon' } })).toBe(true)
  })

  it('a session already under 5 minutes is expiring soon at once; a refreshed one is fresh again', () => {
    const { actor } = harness(session(4), async () => session(60))
    expect(actor.getSnapshot().matches({ loggedIn: { expiry: 'expiringSoon' } })).toBe(true)
    actor.send({ type: 'SESSION_CHANGED', session: session(60) })
    expect(actor.getSnapshot().matches({ loggedIn: { expiry: 'fresh' } })).toBe(true)
  })

  it('re-authenticates in the background every 3 minutes', async () => {
    const { calls, actor } = harness(session(60), async () => session(60))
    await vi.advanceTimersByTimeAsync(3 * minute - 1)
    expect(calls.reauth).toBe(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls.reauth).toBe(1)
    await vi.advanceTimersByTimeAsync(3 * minute)
    expect(calls.reauth).toBe(2)
    expect(actor.getSnapshot().matches({ loggedIn: { refresh: 'waiting' } })).toBe(true)
  })

  it('retries with backoff 2000 ms doubling, the exponent capped at 7, for as long as an outage lasts (spec §4/§9)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5) // zero jitter
    let down = true
    const { calls, actor } = harness(session(60), async () => {
      if (down) throw transient()
      return session(60)
    })
    await vi.advanceTimersByTimeAsync(3 * minute)
    expect(calls.reauth).toBe(1)
    const cap = appConfig.session.backoff.maxAttempts
    // Twelve failed retries: delays 2, 4, … 128 s, then 128 s each (about 20 minutes of outage).
    for (let attempt = 1; attempt <= cap + 5; attempt++) {
      const delay = base * 2 ** (Math.min(attempt, cap) - 1)
      await vi.advanceTimersByTimeAsync(delay - 1)
      expect(calls.reauth).toBe(attempt)
      await vi.advanceTimersByTimeAsync(1)
      expect(calls.reauth).toBe(attempt + 1)
    }
    expect(calls.revoke).toBe(0)
    expect(actor.getSnapshot().matches('loggedIn')).toBe(true)
    // The identity provider is back: the next retry succeeds and the 3-minute rhythm resumes.
    down = false
    await vi.advanceTimersByTimeAsync(base * 2 ** (cap - 1))
    expect(actor.getSnapshot().matches({ loggedIn: { refresh: 'waiting' } })).toBe(true)
    expect(actor.getSnapshot().context.failures).toBe(0)
    expect(calls.reload).toBe(0)
  })

  it('applies the jitter within ±175 ms', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(1) // +175 ms
    const { calls } = harness(session(60), async () => {
      throw transient()
    })
    await vi.advanceTimersByTimeAsync(3 * minute)
    await vi.advanceTimersByTimeAsync(base + appConfig.session.backoff.jitterMs - 1)
    expect(calls.reauth).toBe(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls.reauth).toBe(2)
  })

  it('a success after failures resets the backoff', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5)
    let fail = true
    const { calls, actor } = harness(session(60), async () => {
      if (fail) throw transient()
      return session(60)
    })
    await vi.advanceTimersByTimeAsync(3 * minute)
    fail = false
    await vi.advanceTimersByTimeAsync(base)
    expect(calls.reauth).toBe(2)
    expect(actor.getSnapshot().context.failures).toBe(0)
    expect(actor.getSnapshot().matches({ loggedIn: { refresh: 'waiting' } })).toBe(true)
  })

  it('an unrecoverable error logs out at once', async () => {
    const { calls, actor } = harness(session(60), async () => {
      throw unrecoverable()
    })
    await vi.advanceTimersByTimeAsync(3 * minute)
    expect(calls.reauth).toBe(1)
    expect(calls.revoke).toBe(1)
    expect(actor.getSnapshot().value).toBe('loggedOut')
  })

  it('a re-authentication answering no session logs out and reloads', async () => {
    const { calls, actor } = harness(session(60), async () => null)
    await vi.advanceTimersByTimeAsync(3 * minute)
    expect(actor.getSnapshot().value).toBe('loggedOut')
    expect(calls.reload).toBe(1)
  })

  it('logout revokes, tells the other tabs and reloads', async () => {
    const { calls, actor } = harness(session(60), async () => session(60))
    actor.send({ type: 'LOGOUT' })
    expect(actor.getSnapshot().value).toBe('loggingOut')
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('loggedOut')
    expect(calls).toMatchObject({ revoke: 1, announceLogout: 1, reload: 1, logoutFailed: 0, clearLocal: 0 })
  })

  it("a failed logout is only logged ('Logout failed') and local state is cleared anyway", async () => {
    const { calls, actor } = harness(
      session(60),
      async () => session(60),
      async () => {
        throw transient()
      },
    )
    actor.send({ type: 'LOGOUT' })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().value).toBe('loggedOut')
    expect(actor.getSnapshot().context.session).toBeNull()
    expect(calls).toMatchObject({ logoutFailed: 1, clearLocal: 1, announceLogout: 1, reload: 1 })
  })

  it('stops re-authenticating once logged out', async () => {
    const { calls, actor } = harness(session(60), async () => session(60))
    actor.send({ type: 'SESSION_CHANGED', session: null })
    await vi.advanceTimersByTimeAsync(10 * minute)
    expect(calls.reauth).toBe(0)
    expect(actor.getSnapshot().value).toBe('loggedOut')
  })
})
