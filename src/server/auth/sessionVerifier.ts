/** A signed-in session as the data API sees it, whichever identity provider issued it. */
export interface VerifiedSession {
  memberId: string
  sessionId: string
  organizationId: string
  roles: string[]
  expiresAt: Date
}

/**
 * Checks a bearer credential (opaque session token or session JWT). Returns null when
 * the credential is unknown, expired, revoked or forged. The bundled identity provider
 * implements it; a hosted mode verifies JWTs against a JWKS URL.
 */
export interface SessionVerifier {
  verify(credential: string): Promise<VerifiedSession | null>
}
