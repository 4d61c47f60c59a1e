import { createRemoteJWKSet, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose'
import type { SessionVerifier, VerifiedSession } from '../auth/sessionVerifier'
import { looksLikeJwt, verifySessionJwt } from './sessionJwt'

export interface HostedVerifierOptions {
  /** EMBERLINE_JWKS_URL, e.g. https://test.stytch.com/v1/b2b/sessions/jwks/<project_id>. */
  jwksUrl?: string
  /** Test hook: keys in place of a URL. */
  jwks?: JSONWebKeySet | JWTVerifyGetKey
  projectId: string
  organizationId: string
  /** With EMBERLINE_STYTCH_SECRET, opaque tokens are checked through Stytch's sessions API. */
  secret?: string
  apiUrl?: string
  now?: () => number
  fetchImpl?: typeof fetch
}

interface StytchSessionReply {
  member_session?: {
    member_session_id?: string
    member_id?: string
    organization_id?: string
    expires_at?: string
    roles?: string[]
  }
}

async function authenticateOpaque(
  opts: HostedVerifierOptions,
  token: string,
): Promise<VerifiedSession | null> {
  if (!opts.secret) return null
  const base =
    opts.apiUrl ??
    (opts.projectId.startsWith('project-live-') ? 'https://api.stytch.com' : 'https://test.stytch.com')
  try {
    const response = await (opts.fetchImpl ?? fetch)(`${base}/v1/b2b/sessions/authenticate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`${opts.projectId}:${opts.secret}`).toString('base64')}`,
      },
      body: JSON.stringify({ session_token: token }),
      signal: AbortSignal.timeout(5000),
    })
    if (!response.ok) return null
    const s = ((await response.json()) as StytchSessionReply).member_session
    if (!s?.member_session_id || !s.member_id || !s.organization_id || !s.expires_at) return null
    return {
      memberId: s.member_id,
      sessionId: s.member_session_id,
      organizationId: s.organization_id,
      roles: s.roles ?? [],
      expiresAt: new Date(s.expires_at),
    }
  } catch {
    return null
  }
}

/**
 * Hosted mode (EMBERLINE_IDP=hosted): session JWTs are verified against a JWKS URL, so a real
 * Stytch project replaces the bundled provider by configuration alone. A JWT cannot be
 * revoked before its short expiry (5 minutes at Stytch); opaque tokens need the project secret.
 */
export function createHostedVerifier(opts: HostedVerifierOptions): SessionVerifier {
  const keys =
    opts.jwks ?? (opts.jwksUrl ? createRemoteJWKSet(new URL(opts.jwksUrl), { cacheMaxAge: 300_000 }) : null)
  if (!keys) throw new Error('hosted identity mode needs EMBERLINE_JWKS_URL')
  const now = opts.now ?? Date.now
  return {
    async verify(credential) {
      if (!credential || credential.length > 8192) return null
      let session: VerifiedSession | null
      if (looksLikeJwt(credential)) {
        const claims = await verifySessionJwt(credential, keys, opts.projectId, now())
        session = claims && claims.expiresAt.getTime() > now() ? claims : null
      } else {
        session = await authenticateOpaque(opts, credential)
      }
      return session && session.organizationId === opts.organizationId && session.expiresAt.getTime() > now()
        ? session
        : null
    },
  }
}
