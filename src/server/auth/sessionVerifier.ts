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

/** The data scopes a machine client's access token may carry (issue #32; docs/identity.md). */
export type MachineScope = 'data:read' | 'data:write'

/** A verified machine access token (Stytch B2B M2M): the client and the scopes it still holds. */
export interface VerifiedMachine {
  clientId: string
  organizationId: string
  name: string
  scopes: MachineScope[]
  tokenId: string
  expiresAt: Date
}

/** A machine request that was answered, for the audit log. */
export interface MachineUse {
  method: string
  route: string
  status: number
  ip: string
}

/**
 * Checks a machine access token (null when it is not one, or expired, forged or its client
 * revoked) and records each request a machine made. The bundled identity provider implements it.
 */
export interface MachineVerifier {
  verify(credential: string): Promise<VerifiedMachine | null>
  recordUse(machine: VerifiedMachine, use: MachineUse): Promise<void>
}
