import { appConfig } from '../../shared/config'
import { getStytchClient, type StytchB2B } from './stytchClient'
import { currentSessionToken } from './authFetch'
import type { SessionInfo } from './sessionMachine'

interface MemberSessionLike {
  member_session_id: string
  member_id: string
  expires_at: string
}

export function toSessionInfo(session: MemberSessionLike | null | undefined): SessionInfo | null {
  if (!session) return null
  return {
    sessionId: session.member_session_id,
    memberId: session.member_id,
    expiresAt: Date.parse(session.expires_at),
  }
}

/** The SDK's cached session, if its cookie is present and it has not expired (checked on each navigation). */
export function liveSession(stytch: StytchB2B = getStytchClient()): SessionInfo | null {
  const info = toSessionInfo(stytch.session.getSync())
  if (!info || !currentSessionToken()) return null
  return info.expiresAt > Date.now() ? info : null
}

/** Background re-authentication (POST /sdk/v1/b2b/sessions/authenticate). */
export async function reauthenticate(stytch: StytchB2B = getStytchClient()): Promise<SessionInfo | null> {
  const response = await stytch.session.authenticate()
  return toSessionInfo(response.member_session)
}

/** Revokes the session; the SDK clears its cookies and state even when the call fails. */
export async function revokeSession(stytch: StytchB2B = getStytchClient()): Promise<void> {
  await stytch.session.revoke({ forceClear: true })
}

/** Deletes the SDK's cookies and cached state directly (after a failed logout). */
export function clearLocalSession(): void {
  const { cookies, publicToken } = appConfig.identity
  for (const name of [cookies.session, cookies.sessionJwt, cookies.intermediateSession]) {
    document.cookie = `${name}=; Max-Age=0; path=/; SameSite=Lax`
  }
  try {
    localStorage.setItem(`stytch_sdk_state_${publicToken}`, 'null')
  } catch {
    // storage unavailable: nothing cached there
  }
}
