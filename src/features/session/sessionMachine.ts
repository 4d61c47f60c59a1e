import { assign, fromPromise, raise, setup } from 'xstate'
import { sdkErrorType } from './sdkErrorType'
import { backoffDelayMs, expiringSoonMs, isUnrecoverable, refreshIntervalMs } from './sessionTiming'

/** The part of the identity provider's member session the app uses. */
export interface SessionInfo {
  sessionId: string
  memberId: string
  /** Expiry, epoch milliseconds. */
  expiresAt: number
}

export interface SessionContext {
  session: SessionInfo | null
  /** Failed background re-authentications in a row. */
  failures: number
}

export type SessionEvent =
  { type: 'SESSION_CHANGED'; session: SessionInfo | null } | { type: 'LOGOUT' } | { type: 'SESSION_UPDATED' }

/**
 * Session of spec §4: logged in while a session exists; a change to no session reloads the page;
 * a new session initialises the data sources; 'expiring soon' under 5 minutes; background
 * re-authentication every 3 minutes with exponential backoff (capped, retried for as long as the
 * failures are recoverable); only an unrecoverable failure logs out;
 * a failed logout is only logged and local state is cleared anyway. The SessionProvider supplies
 * the actors and side-effect actions with `.provide()`.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { session: SessionInfo | null },
  },
  actors: {
    reauthenticate: fromPromise<SessionInfo | null>(async () => {
      throw new Error('sessionMachine: provide a reauthenticate actor')
    }),
    revoke: fromPromise<void>(async () => {
      throw new Error('sessionMachine: provide a revoke actor')
    }),
  },
  actions: {
    reloadPage: () => {},
    initDataSources: () => {},
    announceLogout: () => {},
    clearLocalSession: () => {},
    logLogoutFailed: () => {},
    logRefreshFailed: (_, _params: { error: unknown }) => {},
    storeSession: assign((_, session: SessionInfo | null) => ({ session })),
    resetFailures: assign({ failures: 0 }),
    countFailure: assign({ failures: ({ context }) => context.failures + 1 }),
    forgetSession: assign({ session: null, failures: 0 }),
    recheckExpiry: raise({ type: 'SESSION_UPDATED' }),
  },
  guards: {
    hasInitialSession: ({ context }) => context.session !== null,
    eventHasSession: ({ event }) => event.type === 'SESSION_CHANGED' && event.session !== null,
    eventHasNoSession: ({ event }) => event.type === 'SESSION_CHANGED' && event.session === null,
    isExpiringSoon: ({ context }) =>
      context.session !== null && context.session.expiresAt - Date.now() < expiringSoonMs(),
    isUnrecoverable: (_, params: { error: unknown }) => isUnrecoverable(sdkErrorType(params.error)),
    outputHasNoSession: (_, output: SessionInfo | null) => output === null,
  },
  delays: {
    refreshInterval: () => refreshIntervalMs(),
    backoff: ({ context }) => backoffDelayMs(context.failures),
    untilExpiringSoon: ({ context }) =>
      context.session ? Math.max(0, context.session.expiresAt - Date.now() - expiringSoonMs()) : 0,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ session: input.session, failures: 0 }),
  initial: 'boot',
  states: {
    boot: { always: [{ guard: 'hasInitialSession', target: 'loggedIn' }, { target: 'loggedOut' }] },
    loggedOut: {
      on: {
        SESSION_CHANGED: {
          guard: 'eventHasSession',
          target: 'loggedIn',
          actions: { type: 'storeSession', params: ({ event }) => event.session },
        },
      },
    },
    loggedIn: {
      type: 'parallel',
      entry: ['initDataSources', 'resetFailures'],
      on: {
        SESSION_CHANGED: [
          { guard: 'eventHasNoSession', target: 'loggedOut', actions: ['forgetSession', 'reloadPage'] },
          { actions: [{ type: 'storeSession', params: ({ event }) => event.session }, 'recheckExpiry'] },
        ],
        LOGOUT: { target: 'loggingOut' },
      },
      states: {
        refresh: {
          initial: 'waiting',
          states: {
            waiting: { after: { refreshInterval: 'reauthenticating' } },
            reauthenticating: {
              invoke: {
                src: 'reauthenticate',
                onDone: [
                  {
                    guard: { type: 'outputHasNoSession', params: ({ event }) => event.output },
                    target: '#session.loggedOut',
                    actions: ['forgetSession', 'reloadPage'],
                  },
                  {
                    target: 'waiting',
                    actions: [
                      'resetFailures',
                      { type: 'storeSession', params: ({ event }) => event.output },
                      'recheckExpiry',
                    ],
                  },
                ],
                onError: [
                  {
                    guard: { type: 'isUnrecoverable', params: ({ event }) => ({ error: event.error }) },
                    target: '#session.loggingOut',
                    actions: { type: 'logRefreshFailed', params: ({ event }) => ({ error: event.error }) },
                  },
                  {
                    // Recoverable (network, 5xx, timeout): keep retrying with capped backoff.
                    target: 'backingOff',
                    actions: [
                      'countFailure',
                      { type: 'logRefreshFailed', params: ({ event }) => ({ error: event.error }) },
                    ],
                  },
                ],
              },
            },
            backingOff: { after: { backoff: 'reauthenticating' } },
          },
        },
        expiry: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'isExpiringSoon', target: 'expiringSoon' }, { target: 'fresh' }] },
            fresh: {
              after: { untilExpiringSoon: 'expiringSoon' },
              on: { SESSION_UPDATED: { target: 'checking', reenter: true } },
            },
            expiringSoon: { on: { SESSION_UPDATED: { target: 'checking', reenter: true } } },
          },
        },
      },
    },
    loggingOut: {
      invoke: {
        src: 'revoke',
        onDone: { target: 'loggedOut', actions: ['forgetSession', 'announceLogout', 'reloadPage'] },
        onError: {
          target: 'loggedOut',
          actions: ['logLogoutFailed', 'clearLocalSession', 'forgetSession', 'announceLogout', 'reloadPage'],
        },
      },
    },
  },
})
