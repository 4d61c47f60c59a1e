import type { AccountsSource } from '../store/identityStorage'
import type { SessionVerifier } from '../auth/sessionVerifier'
import { createBundledVerifier } from './bundledVerifier'
import { createIdentityContext, type IdentityContext, type IdentityContextOptions } from './context'
import { createHostedVerifier } from './hostedVerifier'
import { identitySettings } from './settings'

export interface Identity {
  /** Null in hosted mode. */
  ctx: IdentityContext | null
  verifier: SessionVerifier
  mode: 'bundled' | 'hosted'
}

/**
 * Chooses the identity mode from the environment: EMBERLINE_IDP=hosted verifies session JWTs
 * against EMBERLINE_JWKS_URL (project id EMBERLINE_STYTCH_PROJECT_ID or config, opaque tokens
 * with EMBERLINE_STYTCH_SECRET); anything else runs the bundled provider over the store.
 */
export async function createIdentity(
  opts: {
    db: AccountsSource
    dataDir: string
    env?: Record<string, string | undefined>
  } & Partial<IdentityContextOptions>,
): Promise<Identity> {
  const env = opts.env ?? process.env
  if (env.EMBERLINE_IDP === 'hosted') {
    const verifier = createHostedVerifier({
      jwksUrl: env.EMBERLINE_JWKS_URL,
      projectId: env.EMBERLINE_STYTCH_PROJECT_ID ?? identitySettings.projectId,
      organizationId: identitySettings.organizationId,
      secret: env.EMBERLINE_STYTCH_SECRET,
      apiUrl: env.EMBERLINE_STYTCH_API_URL,
    })
    return { ctx: null, verifier, mode: 'hosted' }
  }
  const ctx = await createIdentityContext({ ...opts, env })
  return { ctx, verifier: createBundledVerifier(ctx), mode: 'bundled' }
}
