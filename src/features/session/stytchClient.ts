import { createStytchB2BClient, type StytchClientOptions } from '@stytch/vanilla-js/b2b/headless'
import { appConfig } from '../../shared/config'

export type StytchB2B = ReturnType<typeof createStytchB2BClient>

let client: StytchB2B | null = null

/** The SDK's internal background refresher (SessionManager of the pinned 6.3.0). */
interface SdkKeepAlive {
  scheduleBackgroundRefresh(): void
  cancelBackgroundRefresh(): void
}

/**
 * One background refresh (spec §4): the app's session machine re-authenticates every 3 minutes
 * with the spec's backoff (src/features/session). The SDK would also call sessions/authenticate
 * every 3 minutes from its own internal keep-alive; that one is switched off here, so only the
 * machine refreshes. (Internal API of the exactly pinned SDK version, like `endpoints` — ADR 0001.)
 */
export function stopSdkKeepAlive(sdk: object): boolean {
  const manager = (sdk as { _sessionManager?: Partial<SdkKeepAlive> })._sessionManager
  if (
    typeof manager?.scheduleBackgroundRefresh !== 'function' ||
    typeof manager.cancelBackgroundRefresh !== 'function'
  )
    return false
  manager.cancelBackgroundRefresh()
  manager.scheduleBackgroundRefresh = () => {}
  return true
}

/**
 * The one Stytch B2B headless client of the page. The bundled identity provider lives on the
 * app's own origin under /sdk/v1; the SDK's `customBaseUrl` would keep only the hostname and force
 * https:443, so we use its internal `endpoints` option (reference §2, docs/adr/0001). A hosted
 * provider on https:443 is chosen at build time with VITE_EMBERLINE_IDP_HOST (its hostname).
 */
export function getStytchClient(): StytchB2B {
  if (client) return client
  const { cookies, publicToken } = appConfig.identity
  const hostedHost = import.meta.env.VITE_EMBERLINE_IDP_HOST as string | undefined
  const options = {
    ...(hostedHost
      ? { customBaseUrl: hostedHost }
      : { endpoints: { testAPIURL: location.origin, liveAPIURL: location.origin } }),
    cookieOptions: {
      opaqueTokenCookieName: cookies.session,
      jwtCookieName: cookies.sessionJwt,
      istCookieName: cookies.intermediateSession,
    },
  } as StytchClientOptions
  client = createStytchB2BClient(publicToken, options)
  stopSdkKeepAlive(client)
  return client
}
