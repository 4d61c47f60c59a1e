import type { SessionVerifier } from '../auth/sessionVerifier'
import type { IdentityContext } from './context'
import { verifyCredential } from './sessions'

/**
 * The data API's session check against the bundled provider: an opaque session token
 * (looked up by its sha256) or a session JWT (signature, issuer, audience, expiry, and
 * the session row). Revoked or expired sessions and disabled members fail at once.
 */
export function createBundledVerifier(ctx: IdentityContext): SessionVerifier {
  return {
    async verify(credential) {
      if (!credential || credential.length > 8192) return null
      const session = await verifyCredential(ctx, credential)
      return session && session.organizationId === ctx.settings.organizationId ? session : null
    },
  }
}
