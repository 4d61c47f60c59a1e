import { afterEach, describe, expect, it, vi } from 'vitest'
import { createActor, fromPromise } from 'xstate'
import { createCrossTabSync, type CrossTabMessage, type CrossTabSync } from './crossTabSync'
import { sessionMachine, type SessionInfo } from './sessionMachine'

const open: CrossTabSync[] = []
afterEach(() => {
  open.splice(0).forEach((sync) => sync.close())
})

function tab(onMessage: (m: CrossTabMessage) => void): CrossTabSync {
  const sync = createCrossTabSync(onMessage)
  open.push(sync)
  return sync
}

const waitFor = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true))

describe('createCrossTabSync', () => {
  it('delivers a logout announced in one tab to the other tabs, not to itself', async () => {
    const a: CrossTabMessage[] = []
    const b: CrossTabMessage[] = []
    const tabA = tab((m) => a.push(m))
    tab((m) => b.push(m))
    tabA.announce('logout')
    await waitFor(() => b.length === 1)
    expect(b).toEqual(['logout'])
    expect(a).toEqual([])
  })

  it('logging out in one tab logs out the session machine of another tab', async () => {
    let reloads = 0
    const other = createActor(
      sessionMachine.provide({
        actors: {
          reauthenticate: fromPromise(async (): Promise<SessionInfo | null> => null),
          revoke: fromPromise(async () => {}),
        },
        actions: { reloadPage: () => void reloads++ },
      }),
      { input: { session: { sessionId: 's', memberId: 'm', expiresAt: Date.now() + 3_600_000 } } },
    ).start()
    tab((message) => {
      if (message === 'logout') other.send({ type: 'SESSION_CHANGED', session: null })
    })
    const first = tab(() => {})
    first.announce('logout')
    await waitFor(() => other.getSnapshot().value === 'loggedOut')
    expect(reloads).toBe(1)
  })

  it('falls back to storage events without BroadcastChannel', () => {
    const listeners: ((event: StorageEvent) => void)[] = []
    const storage = new Map<string, string>()
    const fakeWindow = {
      addEventListener: (_: string, fn: (event: StorageEvent) => void) => listeners.push(fn),
      removeEventListener: () => {},
      localStorage: {
        setItem: (key: string, value: string) => {
          storage.set(key, value)
          listeners.forEach((fn) => fn({ key, newValue: value } as StorageEvent))
        },
      },
    } as unknown as Window
    const got: CrossTabMessage[] = []
    const sync = createCrossTabSync((m) => got.push(m), { window: fakeWindow })
    sync.announce('logout')
    expect(got).toEqual(['logout'])
  })
})
