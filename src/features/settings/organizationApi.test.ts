import { StytchAPIUnreachableError } from '@stytch/vanilla-js/b2b/headless'
import { describe, expect, it, vi } from 'vitest'
import { appConfig } from '../../shared/config'
import type { StytchB2B } from '../session'
import { OrganizationError, organizationClient } from './organizationApi'

const member = {
  member_id: 'm1',
  email_address: 'ann@utility.example',
  name: 'Ann',
  mfa_phone_number: '',
  member_password_id: '',
  status: 'active',
  roles: [{ role_id: 'stytch_member' }],
}

function fakeSdk() {
  const members = {
    search: vi.fn(async () => ({ members: [member], results_metadata: { total: 30 } })),
    update: vi.fn(async () => ({ member })),
    delete: vi.fn(async () => ({})),
    reactivate: vi.fn(async () => ({ member })),
    deleteMFAPhoneNumber: vi.fn(async () => ({ member })),
  }
  const session = { revokeForMember: vi.fn(async () => ({})) }
  return { sdk: { organization: { members }, session } as unknown as StytchB2B, members, session }
}

const json = (status: number, body: unknown) =>
  vi.fn(async () => new Response(JSON.stringify(body), { status }))

describe('organizationClient', () => {
  it('searches through the SDK: text and status as AND operands, the page as a cursor', async () => {
    const { sdk, members } = fakeSdk()
    const page = await organizationClient(sdk, json(200, {})).search({
      text: ' ann ',
      status: 'inactive',
      page: 2,
      pageSize: 25,
    })
    expect(members.search).toHaveBeenCalledWith({
      limit: 25,
      cursor: '25',
      query: {
        operator: 'AND',
        operands: [
          { filter_name: 'member_email_fuzzy', filter_value: 'ann' },
          { filter_name: 'statuses', filter_value: ['inactive'] },
        ],
      },
    })
    expect(page).toEqual({
      total: 30,
      members: [
        {
          memberId: 'm1',
          email: 'ann@utility.example',
          name: 'Ann',
          phone: null,
          roles: ['stytch_member'],
          status: 'active',
          passwordSet: false,
        },
      ],
    })
  })

  it("turns the SDK's refusal into its message and parameter", async () => {
    const { sdk, members } = fakeSdk()
    members.update.mockRejectedValueOnce({
      name: 'StytchAPIError',
      error_message: 'unknown role(s) nope',
      error_details: { parameter: 'roles' },
    })
    const failure = organizationClient(sdk, json(200, {})).setRoles('m1', ['nope'])
    await expect(failure).rejects.toBeInstanceOf(OrganizationError)
    await expect(failure).rejects.toMatchObject({ message: 'unknown role(s) nope', parameter: 'roles' })
  })

  it("words our API's failures as ours: no answer, a server failure (5xx), a refusal with its parameter", async () => {
    const { sdk } = fakeSdk()
    const invitation = { email: 'ann@utility.example', name: '', phone: '', roles: [] }
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    const noAnswer = organizationClient(sdk, offline).invite(invitation)
    await expect(noAnswer).rejects.toBeInstanceOf(OrganizationError)
    await expect(noAnswer).rejects.toMatchObject({
      message: 'The Emberline server did not answer. Check your network connection and try again.',
    })
    await expect(
      organizationClient(
        sdk,
        json(500, { error: 'internal', message: 'internal server error' }),
      ).resetPassword('m1'),
    ).rejects.toMatchObject({
      message: 'The Emberline server failed (HTTP 500: internal server error). Try again in a moment.',
    })
    await expect(
      organizationClient(
        sdk,
        json(400, { error: 'bad_request', parameter: 'email', message: 'email is not valid' }),
      ).invite(invitation),
    ).rejects.toMatchObject({ message: 'email is not valid', parameter: 'email' })
  })

  it("keeps the identity provider's sentence for its own calls (member search through the SDK) when it is down", async () => {
    const { sdk, members } = fakeSdk()
    members.search.mockRejectedValueOnce(new StytchAPIUnreachableError('Unable to contact our servers.'))
    await expect(
      organizationClient(sdk, json(200, {})).search({ text: '', status: 'all', page: 1, pageSize: 25 }),
    ).rejects.toMatchObject({ message: appConfig.messages.unreachable })
  })

  it('invites, resets and reads the audit log through /api/admin', async () => {
    const { sdk } = fakeSdk()
    const invite = json(201, { member, email_sent: true })
    await expect(
      organizationClient(sdk, invite).invite({
        email: ' ann@utility.example',
        name: '',
        phone: '',
        roles: ['stytch_member'],
      }),
    ).resolves.toMatchObject({ emailSent: true, member: { memberId: 'm1' } })
    expect(invite).toHaveBeenCalledWith('/api/admin/members/invite', {
      method: 'POST',
      body: JSON.stringify({ email: 'ann@utility.example', roles: ['stytch_member'] }),
    })
    const audit = json(200, {
      total: 1,
      events: ['member.disabled'],
      entries: [
        {
          id: 4,
          at: '2026-01-01T00:00:00.000Z',
          event: 'member.disabled',
          actor_email: 'a@x',
          detail: { revokedSessions: 2 },
        },
      ],
    })
    const page = await organizationClient(sdk, audit).audit({
      actor: 'm0',
      action: 'member.',
      member: '',
      from: '2026-01-01T00:00',
      to: '',
      page: 3,
      pageSize: 50,
    })
    const url = new URL(String((audit.mock.calls[0] as unknown[])[0]), 'http://x')
    expect(url.pathname).toBe('/api/admin/audit')
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      page: '3',
      limit: '50',
      actor: 'm0',
      action: 'member.',
    })
    expect(url.searchParams.get('from')).toBe(new Date('2026-01-01T00:00').toISOString())
    expect(page.entries[0]).toMatchObject({
      event: 'member.disabled',
      actorEmail: 'a@x',
      detail: '{"revokedSessions":2}',
    })
    const refused = json(403, { error: 'forbidden', message: 'Your roles do not grant audit:read.' })
    await expect(
      organizationClient(sdk, refused).audit({
        actor: '',
        action: '',
        member: '',
        from: '',
        to: '',
        page: 1,
        pageSize: 50,
      }),
    ).rejects.toThrow('audit:read')
  })
})
