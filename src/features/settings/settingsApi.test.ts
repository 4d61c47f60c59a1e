import { describe, expect, it, vi } from 'vitest'
import {
  changePassword,
  fetchPreferences,
  fetchProfile,
  revokeAllSessions,
  savePreferences,
  SettingsError,
} from './settingsApi'

const json = (status: number, body: unknown) => async () => new Response(JSON.stringify(body), { status })

describe('settingsApi', () => {
  it('reads the profile, roles and session expiry from GET /api/me', async () => {
    const fetcher = vi.fn(
      json(200, {
        member: { member_id: 'm1', email_address: 'ann@example.com', name: 'Ann', phone: '+1505' },
        organization_id: 'org-1',
        roles: ['stytch_member', 'operator', 7],
        permissions: { members: ['read', 3], data: 'read' },
        session: { expires_at: '2025-03-06T12:00:00.000Z' },
      }),
    )
    await expect(fetchProfile(fetcher)).resolves.toEqual({
      memberId: 'm1',
      email: 'ann@example.com',
      name: 'Ann',
      phone: '+1505',
      organizationId: 'org-1',
      roles: ['stytch_member', 'operator'],
      permissions: { members: ['read'] },
      expiresAt: '2025-03-06T12:00:00.000Z',
    })
    expect(fetcher).toHaveBeenCalledWith('/api/me', undefined)
  })

  it('posts the old and new password', async () => {
    const fetcher = vi.fn(json(200, { ok: true }))
    await changePassword('old-one', 'new-one-long', fetcher)
    expect(fetcher).toHaveBeenCalledWith('/api/me/password', {
      method: 'POST',
      body: JSON.stringify({ old: 'old-one', new: 'new-one-long' }),
    })
  })

  it("raises the server's message and parameter on failure", async () => {
    const fetcher = vi.fn(
      json(400, { error: 'bad_request', parameter: 'old', message: 'The current password is not correct.' }),
    )
    const failure = await changePassword('x', 'y', fetcher).catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(SettingsError)
    expect(failure).toMatchObject({
      message: 'The current password is not correct.',
      status: 400,
      parameter: 'old',
      kind: 'refused',
    })
  })

  it("says the server did not answer on a network failure — in its own words, not the identity provider's", async () => {
    const fetcher = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    const failure = await fetchProfile(fetcher).catch((e: unknown) => e)
    expect(failure).toMatchObject({
      message: 'The Emberline server did not answer. Check your network connection and try again.',
      status: 0,
      kind: 'network',
    })
    expect((failure as Error).message).not.toContain('Unable to contact our servers.')
  })

  it('says the server failed on a 5xx, with its status, and that a retry may help', async () => {
    const fetcher = vi.fn(json(500, { error: 'internal', message: 'internal server error' }))
    await expect(savePreferences({ distanceUnits: 'km' }, fetcher)).rejects.toMatchObject({
      message: 'The Emberline server failed (HTTP 500: internal server error). Try again in a moment.',
      status: 500,
      kind: 'server',
      parameter: null,
    })
    const bare = vi.fn(async () => new Response('<html>Bad Gateway</html>', { status: 502 }))
    await expect(fetchProfile(bare)).rejects.toMatchObject({
      message: 'The Emberline server failed (HTTP 502). Try again in a moment.',
      kind: 'server',
    })
  })

  it('names the status of a refusal that carries no message', async () => {
    const fetcher = vi.fn(async () => new Response('', { status: 404 }))
    await expect(revokeAllSessions(fetcher)).rejects.toMatchObject({
      message: 'The server refused the request (HTTP 404).',
      status: 404,
      kind: 'refused',
    })
  })

  it('revokes all sessions', async () => {
    const fetcher = vi.fn(json(200, { ok: true, revoked_sessions: 3 }))
    await expect(revokeAllSessions(fetcher)).resolves.toBe(3)
    expect(fetcher).toHaveBeenCalledWith('/api/me/sessions/revoke-all', { method: 'POST', body: '{}' })
  })

  it('loads and saves preferences', async () => {
    const get = vi.fn(json(200, { preferences: { distanceUnits: 'km', bogus: 1 } }))
    await expect(fetchPreferences(get)).resolves.toEqual({ distanceUnits: 'km' })
    const put = vi.fn(json(200, { preferences: { distanceUnits: 'mi', timeZoneDisplay: 'UTC' } }))
    await expect(savePreferences({ timeZoneDisplay: 'UTC' }, put)).resolves.toEqual({
      distanceUnits: 'mi',
      timeZoneDisplay: 'UTC',
    })
    expect(put).toHaveBeenCalledWith('/api/me/preferences', {
      method: 'PUT',
      body: '{"timeZoneDisplay":"UTC"}',
    })
  })
})
