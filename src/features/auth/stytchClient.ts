import { createStytchB2BClient, type StytchClientOptions } from '@stytch/vanilla-js/b2b/headless'
import { appConfig } from '../../generated/config'

export type StytchB2B = ReturnType<typeof createStytchB2BClient>

let client: StytchB2B | null = null

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
  return client
}
