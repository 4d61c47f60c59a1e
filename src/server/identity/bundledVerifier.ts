import { cachedVerifier } from '../auth/cachedVerifier'
import type { SessionVerifier } from '../auth/sessionVerifier'
import type { IdentityContext } from './context'
import { verifyCredential } from './sessions'
import { looksLikeJwt } from './sessionJwt'

/**
 * The data API's session check against the bundled provider: an opaque session token
 * (looked up by its sha256) or a session JWT (signature, issuer, audience, expiry, and
 * the session row). Revoked or expired sessions and disabled members fail at once: opaque tokens
 * are remembered only until the accounts database next changes (cachedVerifier), and not at all
 * when the store has no change stamp (PostgreSQL: another server may revoke at any time).
 */
export function createBundledVerifier(ctx: IdentityContext): SessionVerifier {
  const verifier: SessionVerifier = {
    async verify(credential) {
      if (!credential || credential.length > 8192) return null
      const session = await verifyCredential(ctx, credential)
      return session && session.organizationId === ctx.settings.organizationId ? session : null
    },
  }
  return cachedVerifier(verifier, {
    stamp: ctx.members.changeStamp?.bind(ctx.members),
    now: () => ctx.now(),
    cacheable: (credential) => !looksLikeJwt(credential),
  })
}
