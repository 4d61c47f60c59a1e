import fs from 'node:fs'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { ensureFirstMember, identitySettings } from '../../src/server/identity'
import { createMember } from '../../src/server/identity/memberAdmin'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { AppStore } from '../../src/server/store/AppStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { tempDir } from './testApp'

// Member administration (issue #22 item 3) through buildApp with the bundled provider: the SDK's
// organization/member endpoints under /sdk/v1 and /api/admin, each checked against config's RBAC
// policy, audited, 401 signed out and 403 for a member without the admin role.
const s = identitySettings
const admin = { email: 'admin@emberline.test', password: 'Ember-line-Admin-Passw0rd', phone: '+15055550142' }
const plain = { email: 'field@emberline.test', password: 'Ember-line-Field-Passw0rd', phone: '+15055550143' }

let app: FastifyInstance
let store: AppStore
let dataDir: string
let plainId = ''
let adminId = ''

const basic = (secret: string = s.publicToken) =>
  `Basic ${Buffer.from(`${s.publicToken}:${secret}`).toString('base64')}`

function outbox(channel: 'sms' | 'email'): Record<string, string>[] {
  const file = path.join(dataDir, 'outbox', `${channel}.jsonl`)
  if (!fs.existsSync(file)) return []
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, string>)
}

async function sdk(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  secret?: string,
  payload?: object,
) {
  return app.inject({
    method,
    url: `/sdk/v1${url}`,
    headers: { authorization: basic(secret), 'content-type': 'application/json' },
    payload: payload === undefined ? undefined : JSON.stringify(payload),
  })
}

const dataOf = (res: { json(): unknown }) => (res.json() as { data: Record<string, unknown> }).data

/** Password → SMS code → session through the SDK routes; `enrol` names a phone for a member without one. */
async function signIn(email: string, password: string, enrol?: string) {
  const login = dataOf(
    await sdk('POST', '/b2b/passwords/authenticate', undefined, {
      organization_id: s.organizationId,
      email_address: email,
      password,
    }),
  )
  return finishSms(String(login.member_id), String(login.intermediate_session_token), enrol)
}

async function finishSms(memberId: string, ist: string, enrol?: string) {
  const send = await sdk('POST', '/b2b/otps/sms/send', undefined, {
    organization_id: s.organizationId,
    member_id: memberId,
    intermediate_session_token: ist,
    ...(enrol ? { mfa_phone_number: enrol } : {}),
  })
  expect(send.statusCode, send.body).toBe(200)
  const code = outbox('sms').at(-1)?.code ?? ''
  const done = await sdk('POST', '/b2b/otps/sms/authenticate', undefined, {
    organization_id: s.organizationId,
    member_id: memberId,
    intermediate_session_token: ist,
    code,
  })
  expect(done.statusCode, done.body).toBe(200)
  return String(dataOf(done).session_token)
}

const api = (method: 'GET' | 'POST', url: string, token: string | null, payload?: object) =>
  app.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    payload: payload ? JSON.stringify(payload) : undefined,
  })

const audit = () => store.members.auditLog(500)

beforeAll(async () => {
  dataDir = tempDir('emberline-member-admin-')
  store = await openDataDirStore(dataDir, defaultCatalog())
  await ensureFirstMember(
    store,
    {
      EMBERLINE_ADMIN_EMAIL: admin.email,
      EMBERLINE_ADMIN_PASSWORD: admin.password,
      EMBERLINE_ADMIN_PHONE: admin.phone,
    },
    () => {},
    { dataDir },
  )
  const members = store.members
  adminId = (await members.memberByEmail(admin.email))?.memberId ?? ''
  plainId = (await createMember(members, s, { ...plain, roles: ['stytch_member'] }, Date.now())).memberId
  app = await buildApp({ dataDir, demo: true, store })
})

afterAll(async () => {
  await app.close()
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

/** Every administration endpoint, with a harmless valid request for each. */
function endpoints(target: string, passwordId: string) {
  return [
    { kind: 'sdk', method: 'POST', url: '/b2b/organizations/me/members/search', body: {} },
    { kind: 'sdk', method: 'PUT', url: `/b2b/organizations/members/${target}`, body: { name: 'Changed' } },
    { kind: 'sdk', method: 'DELETE', url: `/b2b/organizations/members/${target}` },
    { kind: 'sdk', method: 'PUT', url: `/b2b/organizations/members/${target}/reactivate` },
    { kind: 'sdk', method: 'DELETE', url: `/b2b/organizations/members/passwords/${passwordId}` },
    { kind: 'sdk', method: 'DELETE', url: `/b2b/organizations/members/mfa_phone_numbers/${target}` },
    { kind: 'sdk', method: 'POST', url: `/b2b/sessions/revoke/${target}` },
    { kind: 'api', method: 'POST', url: '/api/admin/members/invite', body: { email: 'x@emberline.test' } },
    { kind: 'api', method: 'POST', url: `/api/admin/members/${target}/password-reset`, body: {} },
    { kind: 'api', method: 'GET', url: '/api/admin/audit' },
  ] as const
}

describe('who may administer members', () => {
  it('answers 401 to every administration endpoint signed out', async () => {
    const target = adminId
    const pid = (await store.members.memberById(adminId))?.passwordId ?? ''
    for (const e of endpoints(target, pid)) {
      const res =
        e.kind === 'sdk'
          ? await sdk(e.method, e.url, undefined, 'body' in e ? e.body : undefined)
          : await api(e.method, e.url, null, 'body' in e ? e.body : undefined)
      expect(res.statusCode, `${e.method} ${e.url}`).toBe(401)
    }
  })

  it('answers 403 to a member without the admin role, and changes nothing', async () => {
    const token = await signIn(plain.email, plain.password)
    const before = JSON.stringify(await store.members.listMembers())
    const pid = (await store.members.memberById(adminId))?.passwordId ?? ''
    for (const e of endpoints(adminId, pid)) {
      const res =
        e.kind === 'sdk'
          ? await sdk(e.method, e.url, token, 'body' in e ? e.body : undefined)
          : await api(e.method, e.url, token, 'body' in e ? e.body : undefined)
      expect(res.statusCode, `${e.method} ${e.url}: ${res.body}`).toBe(403)
      if (e.kind === 'sdk') expect(res.json()).toMatchObject({ error_type: 'unauthorized_action' })
      else expect(res.json()).toMatchObject({ error: 'forbidden' })
    }
    expect(JSON.stringify(await store.members.listMembers())).toBe(before)
    // The member's own session is untouched by the refusals.
    expect((await api('GET', '/api/me', token)).statusCode).toBe(200)
  })
})

describe('an administrator', () => {
  let adminToken = ''
  beforeAll(async () => {
    adminToken = await signIn(admin.email, admin.password)
  })

  it('lists and searches members', async () => {
    const all = dataOf(await sdk('POST', '/b2b/organizations/me/members/search', adminToken, {}))
    expect((all.members as { email_address: string }[]).map((m) => m.email_address).sort()).toEqual(
      [admin.email, plain.email].sort(),
    )
    const found = dataOf(
      await sdk('POST', '/b2b/organizations/me/members/search', adminToken, {
        limit: 10,
        query: {
          operator: 'AND',
          operands: [
            { filter_name: 'member_email_fuzzy', filter_value: 'FIELD' },
            { filter_name: 'statuses', filter_value: ['active'] },
          ],
        },
      }),
    )
    expect((found.members as { member_id: string }[]).map((m) => m.member_id)).toEqual([plainId])
    expect(found.results_metadata).toEqual({ total: 1, next_cursor: null })
    const page = dataOf(await sdk('POST', '/b2b/organizations/me/members/search', adminToken, { limit: 1 }))
    expect(page.results_metadata).toEqual({ total: 2, next_cursor: '1' })
    const admins = dataOf(
      await sdk('POST', '/b2b/organizations/me/members/search', adminToken, {
        query: {
          operator: 'AND',
          operands: [{ filter_name: 'member_roles', filter_value: ['stytch_admin'] }],
        },
      }),
    )
    expect((admins.members as { member_id: string }[]).map((m) => m.member_id)).toEqual([adminId])
  })

  it('refuses bad input with 400 naming the parameter, never 500', async () => {
    const cases: [string, string, object | undefined, string][] = [
      ['POST', '/b2b/organizations/me/members/search', { limit: 0 }, 'limit'],
      ['POST', '/b2b/organizations/me/members/search', { cursor: 'abc' }, 'cursor'],
      [
        'POST',
        '/b2b/organizations/me/members/search',
        { query: { operator: 'AND', operands: [{ filter_name: 'statuses', filter_value: 'active' }] } },
        'query.operands.0.filter_value',
      ],
      ['PUT', `/b2b/organizations/members/${plainId}`, { roles: ['nope'] }, 'roles'],
      ['PUT', `/b2b/organizations/members/${plainId}`, { mfa_phone_number: '12' }, 'mfa_phone_number'],
      ['PUT', '/b2b/organizations/members/bad%20id', { name: 'x' }, 'memberId'],
      ['PUT', `/b2b/organizations/members/${plainId}`, { untrusted_metadata: {} }, 'untrusted_metadata'],
    ]
    for (const [method, url, body, parameter] of cases) {
      const res = await sdk(method as 'POST', url, adminToken, body)
      expect(res.statusCode, `${url} ${res.body}`).toBe(400)
      expect(res.json()).toMatchObject({ error_type: 'invalid_request', error_details: { parameter } })
    }
    for (const [url, body, parameter] of [
      ['/api/admin/members/invite', {}, 'email'],
      ['/api/admin/members/invite', { email: 'not-an-address' }, 'email'],
      ['/api/admin/members/invite', { email: 'a@b.example', roles: ['nope'] }, 'roles'],
      ['/api/admin/members/invite', { email: 'a@b.example', phone: 'call me' }, 'phone'],
      ['/api/admin/members/invite', { email: 'a@b.example', role: 'stytch_admin' }, 'role'],
    ] as const) {
      const res = await api('POST', url, adminToken, body)
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
    }
    for (const [q, parameter] of [
      ['page=0', 'page'],
      ['limit=5000', 'limit'],
      ['from=yesterday', 'from'],
      ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'from'],
      ['action=DROP%20TABLE', 'action'],
      ['acter=x', 'acter'],
    ]) {
      const res = await api('GET', `/api/admin/audit?${q}`, adminToken)
      expect(res.statusCode, `${q} ${res.body}`).toBe(400)
      expect(res.json()).toMatchObject({ error: 'bad_request', parameter })
    }
    const unknown = await sdk('DELETE', '/b2b/organizations/members/member-test-unknown', adminToken)
    expect(unknown.statusCode).toBe(404)
  })

  it('changes roles (effective at once on the member session) and audits who did it', async () => {
    const token = await signIn(plain.email, plain.password)
    expect((await api('GET', '/api/admin/audit', token)).statusCode).toBe(403)
    const res = await sdk('PUT', `/b2b/organizations/members/${plainId}`, adminToken, {
      member_id: plainId,
      roles: ['stytch_member', 'stytch_admin'],
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(dataOf(res).member).toMatchObject({ is_admin: true })
    expect((await api('GET', '/api/admin/audit', token)).statusCode).toBe(200)
    const event = (await audit()).find((e) => e.event === 'member.roles_changed')
    expect(event).toMatchObject({
      actorId: adminId,
      memberId: plainId,
      detail: { roles: { from: ['stytch_member'], to: ['stytch_member', 'stytch_admin'] } },
    })
    await sdk('PUT', `/b2b/organizations/members/${plainId}`, adminToken, { roles: ['stytch_member'] })
    expect((await api('GET', '/api/admin/audit', token)).statusCode).toBe(403)
  })

  it('never leaves the organization without an administrator, nor disables itself', async () => {
    const demote = await sdk('PUT', `/b2b/organizations/members/${adminId}`, adminToken, {
      roles: ['stytch_member'],
    })
    expect(demote.statusCode).toBe(409)
    const self = await sdk('DELETE', `/b2b/organizations/members/${adminId}`, adminToken)
    expect(self.statusCode).toBe(409)
    expect((await store.members.memberById(adminId))?.roles).toContain('stytch_admin')
  })

  it('disables a member — every session of theirs refused at once — and enables them again', async () => {
    const token = await signIn(plain.email, plain.password)
    const records = '/api/data/buildings/records?limit=1'
    expect((await api('GET', records, token)).statusCode).toBe(200)
    const res = await sdk('DELETE', `/b2b/organizations/members/${plainId}`, adminToken)
    expect(res.statusCode, res.body).toBe(200)
    expect((await api('GET', records, token)).statusCode).toBe(401)
    expect((await api('GET', '/api/me', token)).statusCode).toBe(401)
    const refresh = await sdk('POST', '/b2b/sessions/authenticate', token, {})
    expect(refresh.json()).toMatchObject({ error_type: 'unauthorized_credentials' })
    const login = await sdk('POST', '/b2b/passwords/authenticate', undefined, {
      organization_id: s.organizationId,
      email_address: plain.email,
      password: plain.password,
    })
    expect(login.statusCode).toBe(401)
    expect((await audit()).find((e) => e.event === 'member.disabled')).toMatchObject({
      actorId: adminId,
      memberId: plainId,
      detail: { revokedSessions: expect.any(Number) as number },
    })
    const back = await sdk('PUT', `/b2b/organizations/members/${plainId}/reactivate`, adminToken)
    expect(dataOf(back).member).toMatchObject({ status: 'active' })
    expect((await audit()).find((e) => e.event === 'member.enabled')).toMatchObject({ actorId: adminId })
    expect(await signIn(plain.email, plain.password)).not.toBe('')
  })

  it("revokes all of a member's sessions", async () => {
    const one = await signIn(plain.email, plain.password)
    const two = await signIn(plain.email, plain.password)
    const res = await sdk('POST', `/b2b/sessions/revoke/${plainId}`, adminToken)
    expect(res.statusCode).toBe(200)
    for (const token of [one, two]) expect((await api('GET', '/api/me', token)).statusCode).toBe(401)
    const event = (await audit()).find((e) => e.event === 'session.revoked_by_admin')
    expect(event).toMatchObject({ actorId: adminId, memberId: plainId })
    // These two, and the one the journey before left open.
    expect(event?.detail.revoked).toBeGreaterThanOrEqual(2)
  })

  it("resets a member's password: the old one stops working and the e-mailed link sets a new one", async () => {
    const token = await signIn(plain.email, plain.password)
    const mails = outbox('email').length
    const res = await api('POST', `/api/admin/members/${plainId}/password-reset`, adminToken, {})
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ email_sent: true, revoked_sessions: 1 })
    expect((await api('GET', '/api/me', token)).statusCode).toBe(401)
    const old = await sdk('POST', '/b2b/passwords/authenticate', undefined, {
      organization_id: s.organizationId,
      email_address: plain.email,
      password: plain.password,
    })
    expect(old.statusCode).toBe(401)
    const mail = outbox('email')[mails]
    expect(mail).toMatchObject({ to: plain.email })
    expect(mail?.link).toContain('/login/Reset?stytch_token_type=multi_tenant_passwords&token=')
    plain.password = 'Ember-line-Field-Passw0rd-2'
    const reset = await sdk('POST', '/b2b/passwords/email/reset', undefined, {
      password_reset_token: mail?.token,
      password: plain.password,
    })
    expect(reset.statusCode, reset.body).toBe(200)
    expect((await audit()).find((e) => e.event === 'member.password_reset')).toMatchObject({
      actorId: adminId,
    })
    expect(await signIn(plain.email, plain.password)).not.toBe('')
  })

  it("removes a member's phone (sessions end) so that the next sign-in enrols a new one", async () => {
    const token = await signIn(plain.email, plain.password)
    const res = await sdk('DELETE', `/b2b/organizations/members/mfa_phone_numbers/${plainId}`, adminToken)
    expect(res.statusCode).toBe(200)
    expect(dataOf(res).member).toMatchObject({ mfa_phone_number: '', mfa_enrolled: false })
    expect((await api('GET', '/api/me', token)).statusCode).toBe(401)
    await signIn(plain.email, plain.password, '+15055550177')
    expect(outbox('sms').at(-1)?.to).toBe('+15055550177')
    expect((await store.members.memberById(plainId))?.phone).toBe('+15055550177')
    // An administrator may also set the phone directly.
    const set = await sdk('PUT', `/b2b/organizations/members/${plainId}`, adminToken, {
      mfa_phone_number: plain.phone,
    })
    expect(dataOf(set).member).toMatchObject({ mfa_phone_number: plain.phone })
    expect((await audit()).find((e) => e.event === 'member.phone_changed')).toMatchObject({
      actorId: adminId,
    })
  })

  it('deletes a password by its id (the SDK call)', async () => {
    const pid = (await store.members.memberById(plainId))?.passwordId ?? ''
    const res = await sdk('DELETE', `/b2b/organizations/members/passwords/${pid}`, adminToken)
    expect(res.statusCode, res.body).toBe(200)
    expect(dataOf(res).member).toMatchObject({ member_password_id: '' })
    expect((await audit()).find((e) => e.event === 'member.password_deleted')).toMatchObject({
      actorId: adminId,
    })
    await api('POST', `/api/admin/members/${plainId}/password-reset`, adminToken, {})
    plain.password = 'Ember-line-Field-Passw0rd-3'
    const reset = await sdk('POST', '/b2b/passwords/email/reset', undefined, {
      password_reset_token: outbox('email').at(-1)?.token,
      password: plain.password,
    })
    expect(reset.statusCode).toBe(200)
  })

  it('invites one address once when invites of it arrive together (the others: 409, never 500)', async () => {
    const email = 'twice.invited@emberline.test'
    const codes = await Promise.all(
      Array.from(
        { length: 6 },
        async () => (await api('POST', '/api/admin/members/invite', adminToken, { email })).statusCode,
      ),
    )
    expect(codes.filter((c) => c === 201)).toHaveLength(1)
    expect(codes.filter((c) => c === 409)).toHaveLength(5)
  })

  it('invites a member: the link sets the password, then sign-in enrols an SMS phone with a code', async () => {
    const email = 'new.planner@emberline.test'
    const res = await api('POST', '/api/admin/members/invite', adminToken, {
      email,
      name: 'New Planner',
      roles: ['stytch_member'],
    })
    expect(res.statusCode, res.body).toBe(201)
    const invited = (res.json() as { member: { member_id: string; member_password_id: string } }).member
    expect(invited.member_password_id).toBe('')
    expect((await api('POST', '/api/admin/members/invite', adminToken, { email })).statusCode).toBe(409)
    const mail = outbox('email').at(-1)
    expect(mail).toMatchObject({ to: email, memberId: invited.member_id })
    expect(mail?.text).toContain('invited')
    // Before the link is used there is no password to sign in with.
    const early = await sdk('POST', '/b2b/passwords/authenticate', undefined, {
      organization_id: s.organizationId,
      email_address: email,
      password: 'anything-at-all-1',
    })
    expect(early.statusCode).toBe(401)
    const reset = await sdk('POST', '/b2b/passwords/email/reset', undefined, {
      password_reset_token: mail?.token,
      password: 'Planner-first-Passw0rd',
    })
    expect(reset.statusCode, reset.body).toBe(200)
    const ist = dataOf(reset)
    expect(ist.member_session).toBeNull()
    // No phone yet: no code is sent until one is named …
    const noPhone = await sdk('POST', '/b2b/otps/sms/send', undefined, {
      organization_id: s.organizationId,
      member_id: invited.member_id,
      intermediate_session_token: ist.intermediate_session_token,
    })
    expect(noPhone.statusCode).toBe(403)
    expect(noPhone.json()).toMatchObject({ error_type: 'sms_mfa_not_enrolled' })
    // … and a code for another number does not verify a different phone.
    const token = await finishSms(
      invited.member_id,
      String(ist.intermediate_session_token),
      '+1 505 555 0188',
    )
    expect((await api('GET', '/api/me', token)).json()).toMatchObject({
      member: { email_address: email, phone: '+15055550188' },
    })
    expect((await audit()).find((e) => e.event === 'member.invited')).toMatchObject({
      actorId: adminId,
      memberId: invited.member_id,
    })
    expect((await audit()).find((e) => e.event === 'member.phone_enrolled')).toMatchObject({
      memberId: invited.member_id,
    })
  })

  it('invites a member with a phone: after the link the code goes to that phone', async () => {
    const email = 'crew.lead@emberline.test'
    const res = await api('POST', '/api/admin/members/invite', adminToken, {
      email,
      phone: '+1 (505) 555-0199',
      roles: ['stytch_member', 'stytch_admin'],
    })
    expect(res.statusCode, res.body).toBe(201)
    const invited = (
      res.json() as { member: { member_id: string; mfa_phone_number: string; is_admin: boolean } }
    ).member
    expect(invited).toMatchObject({ mfa_phone_number: '+15055550199', is_admin: true })
    const reset = await sdk('POST', '/b2b/passwords/email/reset', undefined, {
      password_reset_token: outbox('email').at(-1)?.token,
      password: 'Crew-lead-first-Passw0rd',
    })
    const ist = dataOf(reset)
    expect(ist.mfa_required).toMatchObject({ member_options: { mfa_phone_number: '+15055550199' } })
    const token = await finishSms(invited.member_id, String(ist.intermediate_session_token))
    expect(outbox('sms').at(-1)?.to).toBe('+15055550199')
    expect((await api('GET', '/api/admin/audit', token)).statusCode).toBe(200)
  })

  it('reads the audit log with filters (actor, action, member, time range), paginated', async () => {
    const all = (await api('GET', '/api/admin/audit?limit=200', adminToken)).json() as {
      total: number
      entries: {
        id: number
        event: string
        at: string
        actor_id: string
        member_id: string
        actor_email: string
      }[]
      events: string[]
    }
    expect(all.total).toBeGreaterThan(10)
    expect(all.events).toContain('member.disabled')
    const byAdmin = (
      await api('GET', `/api/admin/audit?actor=${adminId}&action=member.&limit=200`, adminToken)
    ).json() as typeof all
    expect(byAdmin.entries.length).toBeGreaterThan(5)
    for (const e of byAdmin.entries) {
      expect(e.event.startsWith('member.')).toBe(true)
      expect(e.actor_id).toBe(adminId)
      expect(e.actor_email).toBe(admin.email)
    }
    const disabled = (
      await api('GET', `/api/admin/audit?action=member.disabled&member=${plainId}`, adminToken)
    ).json() as typeof all
    expect(disabled.total).toBe(1)
    expect(disabled.entries[0]).toMatchObject({ event: 'member.disabled', member_id: plainId })
    const at = Date.parse(disabled.entries[0]?.at ?? '')
    const window = `from=${new Date(at).toISOString()}&to=${new Date(at + 1).toISOString()}&action=member.disabled`
    expect(((await api('GET', `/api/admin/audit?${window}`, adminToken)).json() as typeof all).total).toBe(1)
    const later = `from=${new Date(at + 1).toISOString()}&action=member.disabled`
    expect(((await api('GET', `/api/admin/audit?${later}`, adminToken)).json() as typeof all).total).toBe(0)
    const page1 = (await api('GET', '/api/admin/audit?limit=3&page=1', adminToken)).json() as typeof all
    const page2 = (await api('GET', '/api/admin/audit?limit=3&page=2', adminToken)).json() as typeof all
    expect(page1.entries).toHaveLength(3)
    expect(page2.entries).toHaveLength(3)
    expect(page1.total).toBe(page2.total)
    // Consecutive, newest first, no overlap.
    const ids = [...page1.entries, ...page2.entries].map((e) => e.id)
    expect(new Set(ids).size).toBe(6)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
  })
})
