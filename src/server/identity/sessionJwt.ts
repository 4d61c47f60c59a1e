import {
  SignJWT,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
  type CryptoKey,
} from 'jose'
import type { IdentityStore, SessionRecord } from '../store/identityStore'
import { newId } from './crypto'

export const SESSION_CLAIM = 'https://stytch.com/session'
export const ORGANIZATION_CLAIM = 'https://stytch.com/organization'

export interface SigningKey {
  kid: string
  privateKey: CryptoKey | Uint8Array
  /** The public keys (JWKS endpoints, verification); re-read by storeKeySet on an unknown key id. */
  jwks: JSONWebKeySet
}

/** How often an unknown key id may make the verifier re-read the store's public keys. */
const RELOAD_MS = 10_000

/**
 * The keys session JWTs are verified with: those read at start, re-read from the store (at most
 * every 10 s) when a token names a key id they lack — another server that started at the same
 * time on an empty database stored and signs with its own key. The re-read keys replace
 * `key.jwks`, so the JWKS endpoints publish them too.
 */
export function storeKeySet(store: IdentityStore, key: SigningKey): JWTVerifyGetKey {
  let local = createLocalJWKSet(key.jwks)
  let readAt = Number.NEGATIVE_INFINITY
  return async (header, token) => {
    const known = header.kid === undefined || key.jwks.keys.some((k) => k.kid === header.kid)
    if (!known && Date.now() - readAt >= RELOAD_MS) {
      readAt = Date.now()
      key.jwks = { keys: (await store.publicKeys()).map((k) => JSON.parse(k) as JWK) }
      local = createLocalJWKSet(key.jwks)
    }
    return local(header, token)
  }
}

/** Loads the RS256 signing key from the store, generating and saving one on first start. */
export async function loadSigningKey(store: IdentityStore, now: number): Promise<SigningKey> {
  if (!(await store.signingKey())) {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
    const kid = newId('jwk')
    const pub: JWK = { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }
    const priv: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256' }
    await store.insertSigningKey(kid, JSON.stringify(priv), JSON.stringify(pub), now)
  }
  const saved = await store.signingKey()
  if (!saved) throw new Error('identity: no signing key could be stored')
  return {
    kid: saved.kid,
    privateKey: await importJWK(JSON.parse(saved.privateJwk) as JWK, 'RS256'),
    jwks: { keys: (await store.publicKeys()).map((k) => JSON.parse(k) as JWK) },
  }
}

export interface JwtSubject {
  session: SessionRecord
  organizationId: string
  organizationSlug: string
  roles: string[]
}

export interface JwtAudience {
  projectId: string
  jwtMinutes: number
}

export function jwtIssuer(projectId: string): string {
  return `stytch.com/${projectId}`
}

/** Signs a Stytch-shaped session JWT, valid for jwtMinutes but never past the session's end. */
export async function signSessionJwt(key: SigningKey, aud: JwtAudience, subject: JwtSubject, now: number) {
  const { session } = subject
  const exp = Math.min(now + aud.jwtMinutes * 60_000, session.expiresAt)
  return new SignJWT({
    [SESSION_CLAIM]: {
      id: session.sessionId,
      started_at: new Date(session.startedAt).toISOString(),
      last_accessed_at: new Date(session.lastAccessedAt).toISOString(),
      expires_at: new Date(session.expiresAt).toISOString(),
      attributes: { ip_address: '', user_agent: '' },
      authentication_factors: session.factors,
      roles: subject.roles,
    },
    [ORGANIZATION_CLAIM]: { organization_id: subject.organizationId, slug: subject.organizationSlug },
  })
    .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
    .setSubject(session.memberId)
    .setAudience([aud.projectId])
    .setIssuer(jwtIssuer(aud.projectId))
    .setIssuedAt(Math.floor(now / 1000))
    .setNotBefore(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(exp / 1000))
    .sign(key.privateKey)
}

export interface SessionClaims {
  memberId: string
  sessionId: string
  organizationId: string
  roles: string[]
  expiresAt: Date
}

function readClaims(payload: JWTPayload): SessionClaims | null {
  const session = payload[SESSION_CLAIM] as
    { id?: unknown; roles?: unknown; expires_at?: unknown } | undefined
  const org = payload[ORGANIZATION_CLAIM] as { organization_id?: unknown } | undefined
  if (typeof payload.sub !== 'string' || !session || typeof session.id !== 'string') return null
  const roles = Array.isArray(session.roles)
    ? session.roles.filter((r): r is string => typeof r === 'string')
    : []
  const expires = typeof session.expires_at === 'string' ? new Date(session.expires_at) : null
  return {
    memberId: payload.sub,
    sessionId: session.id,
    organizationId: typeof org?.organization_id === 'string' ? org.organization_id : '',
    roles,
    expiresAt: expires && !Number.isNaN(expires.getTime()) ? expires : new Date((payload.exp ?? 0) * 1000),
  }
}

/** Verifies signature (RS256 only), issuer, audience, typ and time; null for anything wrong. */
export async function verifySessionJwt(
  token: string,
  keys: JSONWebKeySet | JWTVerifyGetKey,
  projectId: string,
  now: number,
): Promise<SessionClaims | null> {
  const getKey = typeof keys === 'function' ? keys : createLocalJWKSet(keys)
  try {
    const { payload } = await jwtVerify(token, getKey, {
      algorithms: ['RS256'],
      issuer: jwtIssuer(projectId),
      audience: projectId,
      typ: 'JWT',
      currentDate: new Date(now),
    })
    return readClaims(payload)
  } catch {
    return null
  }
}

/** True when the credential has the three-part shape of a JWS (the opaque tokens never do). */
export function looksLikeJwt(credential: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(credential)
}
