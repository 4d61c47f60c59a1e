import { useActorRef, useSelector } from '@xstate/react'
import { createContext, useEffect, useMemo, type ReactNode } from 'react'
import { fromPromise } from 'xstate'
import { appConfig } from '../../shared/config'
import { getStytchClient } from './stytchClient'
import { createCrossTabSync, type CrossTabSync } from './crossTabSync'
import { initDataSources, resetDataSources } from './dataSources'
import { registerSessionSources } from './sessionSources'
import { sessionMachine, type SessionInfo } from './sessionMachine'
import { clearLocalSession, liveSession, reauthenticate, revokeSession, toSessionInfo } from './stytchSession'

export interface SessionValue {
  status: 'loggedIn' | 'loggedOut' | 'loggingOut'
  session: SessionInfo | null
  expiringSoon: boolean
  logout(): void
}

export const SessionContext = createContext<SessionValue | null>(null)

let tabSync: CrossTabSync | null = null

// Wind vectors and smoke are fetched when a session starts (spec §4), before any map asks.
registerSessionSources()

/** The session machine wired to the SDK, the page and the other tabs. */
const browserSessionMachine = sessionMachine.provide({
  actors: {
    reauthenticate: fromPromise(() => reauthenticate()),
    revoke: fromPromise(() => revokeSession()),
  },
  actions: {
    reloadPage: () => {
      resetDataSources()
      window.location.reload()
    },
    initDataSources: () => initDataSources(),
    announceLogout: () => tabSync?.announce('logout'),
    clearLocalSession: () => clearLocalSession(),
    logLogoutFailed: () => console.error(appConfig.messages.logoutFailed),
    logRefreshFailed: (_, params) => console.warn('Session re-authentication failed', params.error),
  },
})

/** Runs the session machine over the Stytch SDK and shares it with the app and other tabs. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const actor = useActorRef(browserSessionMachine, { input: { session: liveSession() } })

  useEffect(() => {
    const sync = createCrossTabSync((message) => {
      if (message === 'logout') actor.send({ type: 'SESSION_CHANGED', session: null })
      const session = liveSession()
      if (message === 'login' && session) actor.send({ type: 'SESSION_CHANGED', session })
    })
    tabSync = sync
    const unsubscribe = getStytchClient().session.onChange((session) => {
      const info = toSessionInfo(session)
      const wasLoggedIn = actor.getSnapshot().context.session !== null
      actor.send({ type: 'SESSION_CHANGED', session: info })
      if (info && !wasLoggedIn) sync.announce('login')
    })
    return () => {
      unsubscribe()
      sync.close()
      tabSync = null
    }
  }, [actor])

  const status = useSelector(actor, (s) =>
    s.matches('loggedIn') ? 'loggedIn' : s.matches('loggingOut') ? 'loggingOut' : 'loggedOut',
  )
  const session = useSelector(actor, (s) => s.context.session)
  const expiringSoon = useSelector(actor, (s) => s.matches({ loggedIn: { expiry: 'expiringSoon' } }))
  const value = useMemo<SessionValue>(
    () => ({ status, session, expiringSoon, logout: () => actor.send({ type: 'LOGOUT' }) }),
    [actor, status, session, expiringSoon],
  )
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}
