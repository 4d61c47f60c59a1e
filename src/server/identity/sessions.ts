import type { AuthFactor, MemberRecord, SessionRecord } from '../store/identityStore'
import type { VerifiedSession } from '../auth/sessionVerifier'
import type { IdentityContext } from './context'
import { newId, newToken, sha256 } from './crypto'
import { errors } from './errors'
import { sessionCapMinutes, sessionLength } from './guards'
import { memberJson, memberSessionJson, organizationJson } from './responses'
import { looksLikeJwt, signSessionJwt, verifySessionJwt } from './sessionJwt'

export interface IssuedSession {
  session: SessionRecord
  member: MemberRecord
  sessionToken: string
  sessionJwt: string
}

async function jwtFor(ctx: IdentityContext, session: SessionRecord, member: MemberRecord): Promise<string> {
  const { settings } = ctx
  return signSessionJwt(
    ctx.key,
    settings,
    {
      session,
      organizationId: settings.organizationId,
      organizationSlug: settings.organizationSlug,
      roles: member.roles,
    },
    ctx.now(),
  )
}

/** Starts a full session: a fresh opaque token (stored as its sha256) and a signed JWT. */
export async function issueSession(
  ctx: IdentityContext,
  member: MemberRecord,
  factors: AuthFactor[],
  minutes: number,
): Promise<IssuedSession> {
  const now = ctx.now()
  const sessionToken = newToken()
  const session: SessionRecord = {
    sessionId: newId('member-session'),
    memberId: member.memberId,
    factors,
    startedAt: now,
    lastAccessedAt: now,
    expiresAt: now + minutes * 60_000,
    revokedAt: null,
  }
  await ctx.members.insertSession(session, sha256(sessionToken))
  return { session, member, sessionToken, sessionJwt: await jwtFor(ctx, session, member) }
}

interface LiveSession {
  session: SessionRecord
  member: MemberRecord
}

/** The session and member behind a session id, or null when revoked, expired or the member is disabled. */
async function live(ctx: IdentityContext, session: SessionRecord | null): Promise<LiveSession | null> {
  if (!session || session.revokedAt !== null || session.expiresAt <= ctx.now()) return null
  const member = await ctx.members.memberById(session.memberId)
  if (!member || member.status !== 'active') return null
  return { session, member }
}

export async function liveSessionByToken(ctx: IdentityContext, token: string): Promise<LiveSession | null> {
  return live(ctx, await ctx.members.sessionByTokenHash(sha256(token)))
}

/**
 * sessions/authenticate: checks the opaque token, optionally extends it, signs a fresh JWT. An
 * extension never reaches past the session's start + the length allowed for how it was made
 * (sessionCapMinutes: a reset session stays within its 60 minutes).
 */
export async function refreshSession(
  ctx: IdentityContext,
  token: string | null,
  extendMinutes: number | null,
): Promise<IssuedSession> {
  const found = token ? await liveSessionByToken(ctx, token) : null
  if (!token || !found) throw errors.noSession()
  const now = ctx.now()
  const capMinutes = sessionCapMinutes(ctx, found.session.factors)
  const cap = found.session.startedAt + capMinutes * 60_000
  const minutes = extendMinutes ? sessionLength(extendMinutes, capMinutes) : null
  const expiresAt = Math.min(minutes ? now + minutes * 60_000 : found.session.expiresAt, cap)
  // Revoked since it was read (by this server or another): no fresh JWT for it.
  if (!(await ctx.members.touchSession(found.session.sessionId, now, expiresAt))) throw errors.noSession()
  const session = { ...found.session, lastAccessedAt: now, expiresAt }
  return {
    session,
    member: found.member,
    sessionToken: token,
    sessionJwt: await jwtFor(ctx, session, found.member),
  }
}

/** Revokes the session of an opaque token; throws unauthorized_credentials when there is none. */
export async function revokeSessionToken(ctx: IdentityContext, token: string | null): Promise<SessionRecord> {
  const found = token ? await liveSessionByToken(ctx, token) : null
  if (!found) throw errors.noSession()
  await ctx.members.revokeSession(found.session.sessionId, ctx.now())
  return found.session
}

/** Checks an opaque token or a session JWT against the store (revocation applies at once). */
export async function verifyCredential(
  ctx: IdentityContext,
  credential: string,
): Promise<VerifiedSession | null> {
  let found: LiveSession | null
  if (looksLikeJwt(credential)) {
    const claims = await verifySessionJwt(credential, ctx.jwtKeys, ctx.settings.projectId, ctx.now())
    found = claims ? await live(ctx, await ctx.members.sessionById(claims.sessionId)) : null
    if (found && found.member.memberId !== claims?.memberId) return null
  } else {
    found =
      credential.length >= 20 && credential.length <= 200 ? await liveSessionByToken(ctx, credential) : null
  }
  if (!found) return null
  return {
    memberId: found.member.memberId,
    sessionId: found.session.sessionId,
    organizationId: found.member.organizationId,
    roles: found.member.roles,
    expiresAt: new Date(found.session.expiresAt),
  }
}

/** The body of a full-session authenticate response (reference §8.1 outcome A). */
export function fullSessionBody(ctx: IdentityContext, issued: IssuedSession) {
  return {
    member_id: issued.member.memberId,
    member: memberJson(issued.member),
    organization: organizationJson(ctx.settings),
    member_session: memberSessionJson(issued.session, issued.member, ctx.settings),
    session_token: issued.sessionToken,
    session_jwt: issued.sessionJwt,
    intermediate_session_token: '',
    member_authenticated: true,
    mfa_required: null,
    primary_required: null,
  }
}
