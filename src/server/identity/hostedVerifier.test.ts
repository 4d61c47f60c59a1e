import { SignJWT, exportJWK, generateKeyPair, type JSONWebKeySet } from 'jose'
import { beforeAll, describe, expect, it } from 'vitest'
import type { SessionRecord } from '../store/identityStore'
import { createHostedVerifier } from './hostedVerifier'
import { jwtIssuer, signSessionJwt, type SigningKey } from './sessionJwt'

const projectId = 'project-test-hosted'
const organizationId = 'organization-test-hosted'
const now = Date.parse('2025-03-05T12:00:00Z')
let key: SigningKey
let jwks: JSONWebKeySet

const session: SessionRecord = {
  sessionId: 'member-session-test-1',
  memberId: 'member-test-1',
  factors: [],
  startedAt: now,
  lastAccessedAt: now,
  expiresAt: now + 3_600_000,
  revokedAt: null,
}

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
  jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256' }] }
  key = { kid: 'k1', privateKey, jwks }
})

const sign = (over: Partial<{ projectId: string; org: string; at: number }> = {}) =>
  signSessionJwt(
    key,
    { projectId: over.projectId ?? projectId, jwtMinutes: 5 },
    {
      session,
      organizationId: over.org ?? organizationId,
      organizationSlug: 'slug',
      roles: ['stytch_member'],
    },
    over.at ?? now,
  )

describe('hosted verifier (JWKS)', () => {
  const verifier = () => createHostedVerifier({ jwks, projectId, organizationId, now: () => now + 60_000 })

  it('accepts a Stytch-shaped session JWT signed by a JWKS key', async () => {
    expect(await verifier().verify(await sign())).toEqual({
      memberId: session.memberId,
      sessionId: session.sessionId,
      organizationId,
      roles: ['stytch_member'],
      expiresAt: new Date(session.expiresAt),
    })
  })

  it('refuses another audience, another organization, an expired JWT and a foreign key', async () => {
    expect(await verifier().verify(await sign({ projectId: 'project-test-other' }))).toBeNull()
    expect(await verifier().verify(await sign({ org: 'organization-test-other' }))).toBeNull()
    expect(await verifier().verify(await sign({ at: now - 10 * 60_000 }))).toBeNull()
    const { privateKey } = await generateKeyPair('RS256')
    const foreign = await new SignJWT({ 'https://stytch.com/session': { id: 's' } })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1', typ: 'JWT' })
      .setSubject('m')
      .setAudience(projectId)
      .setIssuer(jwtIssuer(projectId))
      .setExpirationTime('1h')
      .sign(privateKey)
    expect(await verifier().verify(foreign)).toBeNull()
  })

  it('refuses opaque tokens unless a project secret lets it ask Stytch', async () => {
    expect(await verifier().verify('opaque-session-token-000000000000')).toBeNull()
    const calls: string[] = []
    const fetchImpl = (async (url: string, init: RequestInit) => {
      calls.push(`${url} ${String(init.body)}`)
      const member_session = {
        member_session_id: 's2',
        member_id: 'm2',
        organization_id: organizationId,
        expires_at: new Date(now + 3_600_000).toISOString(),
        roles: ['stytch_admin'],
      }
      return new Response(JSON.stringify({ member_session }), { status: 200 })
    }) as typeof fetch
    const withSecret = createHostedVerifier({
      jwks,
      projectId,
      organizationId,
      secret: 'secret',
      fetchImpl,
      now: () => now,
    })
    expect(await withSecret.verify('opaque-session-token-000000000000')).toMatchObject({
      memberId: 'm2',
      roles: ['stytch_admin'],
    })
    expect(calls[0]).toContain('https://test.stytch.com/v1/b2b/sessions/authenticate')
  })
})
