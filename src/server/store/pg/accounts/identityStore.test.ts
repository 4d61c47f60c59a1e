import { describe, expect, it } from 'vitest'
import type { MemberRecord, SessionRecord } from '../../identityStore'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from './testing/bothAccountStores'
import { memberRecord } from '../../testing/memberRecord'

const member = (id: string, email: string, over: Partial<MemberRecord> = {}): MemberRecord =>
  memberRecord(id, { email, roles: ['viewer'], createdAt: 1000, updatedAt: 1000, ...over })

const session = (id: string, memberId: string, over: Partial<SessionRecord> = {}): SessionRecord => ({
  sessionId: id,
  memberId,
  factors: [
    {
      type: 'password',
      delivery_method: 'knowledge',
      last_authenticated_at: '2026-11-25T10:00:00Z',
      sequence_order: 'PRIMARY',
    },
  ],
  startedAt: 1000,
  lastAccessedAt: 1000,
  expiresAt: 10_000,
  revokedAt: null,
  ...over,
})

describe.each(ACCOUNT_STORE_KINDS)('IdentityStore (%s)', (kind) => {
  const t = accountStoresFor(kind)

  it('stores members, finds them by id and by e-mail (trimmed, lower case), lists and counts them', async () => {
    const { members } = t.stores
    expect(await members.countMembers()).toBe(0)
    await members.insertMember(member('m-b', ' Bob@Example.com ', { createdAt: 2000, phone: '+15550001' }))
    await members.insertMember(member('m-a', 'ann@example.com', { roles: ['admin', 'viewer'] }))
    expect(await members.countMembers()).toBe(2)
    expect(await members.memberByEmail('BOB@example.com ')).toEqual(
      member('m-b', 'bob@example.com', { createdAt: 2000, phone: '+15550001' }),
    )
    expect((await members.memberById('m-a'))?.roles).toEqual(['admin', 'viewer'])
    expect(await members.memberById('nobody')).toBeNull()
    expect(await members.memberByEmail('nobody@example.com')).toBeNull()
    expect((await members.listMembers()).map((m) => m.memberId)).toEqual(['m-a', 'm-b'])
    // The e-mail address is unique.
    await expect(async () => members.insertMember(member('m-c', 'ANN@example.com'))).rejects.toThrow()
  })

  it('changes only the fields a patch names', async () => {
    const { members } = t.stores
    await members.insertMember(member('m-a', 'ann@example.com', { phone: '+15550001', passwordHash: 'h' }))
    await members.updateMember('m-a', { name: 'Ann', roles: ['admin'] }, 2000)
    await members.updateMember('m-a', { phone: null, status: 'inactive' }, 3000)
    await members.updateMember('nobody', { name: 'x' }, 3000)
    expect(await members.memberById('m-a')).toEqual(
      member('m-a', 'ann@example.com', {
        name: 'Ann',
        roles: ['admin'],
        phone: null,
        status: 'inactive',
        passwordHash: 'h',
        updatedAt: 3000,
      }),
    )
    await members.updateMember('m-a', { passwordHash: null, passwordId: 'pw-1' }, 4000)
    const m = await members.memberById('m-a')
    expect([m?.passwordHash, m?.passwordId, m?.name]).toEqual([null, 'pw-1', 'Ann'])
  })

  it('keeps sessions: by token hash and id, touch, revoke (once), revoke all but one, live count', async () => {
    const { members } = t.stores
    await members.insertMember(member('m-a', 'ann@example.com'))
    await members.insertSession(session('s-1', 'm-a'), 'hash-1')
    await members.insertSession(session('s-2', 'm-a'), 'hash-2')
    await members.insertSession(session('s-3', 'm-a'), 'hash-3')
    await members.insertSession(session('s-old', 'm-a', { expiresAt: 1500 }), 'hash-old')
    expect(await members.sessionByTokenHash('hash-1')).toEqual(session('s-1', 'm-a'))
    expect((await members.sessionById('s-2'))?.factors[0]?.type).toBe('password')
    expect(await members.sessionByTokenHash('nope')).toBeNull()
    expect(await members.sessionById('nope')).toBeNull()
    expect(await members.activeSessionCount('m-a', 2000)).toBe(3)

    expect(await members.touchSession('s-1', 3000, 20_000)).toBe(true)
    expect(await members.sessionById('s-1')).toMatchObject({ lastAccessedAt: 3000, expiresAt: 20_000 })
    expect(await members.revokeSession('s-1', 4000)).toBe(true)
    expect(await members.revokeSession('s-1', 5000)).toBe(false)
    expect((await members.sessionById('s-1'))?.revokedAt).toBe(4000)
    // A revoked session is not extended.
    expect(await members.touchSession('s-1', 6000, 30_000)).toBe(false)
    expect(await members.touchSession('nope', 6000, 30_000)).toBe(false)

    expect(await members.revokeMemberSessions('m-a', 7000, 's-2')).toBe(1)
    expect((await members.sessionById('s-3'))?.revokedAt).toBe(7000)
    expect((await members.sessionById('s-old'))?.revokedAt).toBeNull()
    expect(await members.activeSessionCount('m-a', 7000)).toBe(1)
    expect(await members.revokeMemberSessions('m-a', 8000)).toBe(1)
    expect(await members.activeSessionCount('m-a', 8000)).toBe(0)
  })

  it('keeps signing keys (a kid stored twice keeps the first), newest first', async () => {
    const { members } = t.stores
    expect(await members.signingKey()).toBeNull()
    expect(await members.publicKeys()).toEqual([])
    await members.insertSigningKey('k1', '{"d":"1"}', '{"kid":"k1", "x":1}', 1000)
    await members.insertSigningKey('k2', '{"d":"2"}', '{"kid":"k2"}', 2000)
    await members.insertSigningKey('k2', '{"d":"other"}', '{"kid":"other"}', 3000)
    expect(await members.signingKey()).toEqual({
      kid: 'k2',
      privateJwk: '{"d":"2"}',
      publicJwk: '{"kid":"k2"}',
    })
    // The JWK text comes back as written.
    expect(await members.publicKeys()).toEqual(['{"kid":"k2"}', '{"kid":"k1", "x":1}'])
  })

  it('writes the audit log and reads it newest first, detail keys in the order written', async () => {
    const { members } = t.stores
    await members.audit({ at: 1, event: 'a', memberId: 'm-a', subject: null, ip: '10.0.0.1', detail: {} })
    await members.audit({
      at: 2,
      event: 'b',
      actorId: 'admin',
      memberId: 'm-a',
      subject: 's',
      ip: null,
      detail: { zeta: 1, alpha: ['x'], nested: { b: true, a: null } },
    })
    const log = await members.auditLog()
    expect(log).toEqual([
      {
        at: 2,
        event: 'b',
        actorId: 'admin',
        memberId: 'm-a',
        subject: 's',
        ip: null,
        detail: { zeta: 1, alpha: ['x'], nested: { b: true, a: null } },
      },
      { at: 1, event: 'a', actorId: null, memberId: 'm-a', subject: null, ip: '10.0.0.1', detail: {} },
    ])
    expect(JSON.stringify(log[0]?.detail)).toBe('{"zeta":1,"alpha":["x"],"nested":{"b":true,"a":null}}')
    expect(await members.auditLog(1)).toHaveLength(1)
  })

  it('searches members by text, phone, ids, e-mails, status, roles and password, paged by e-mail', async () => {
    const { members } = t.stores
    await members.insertMember(member('m-1', 'ann@example.com', { name: 'Ann 100%', phone: '+15550001' }))
    await members.insertMember(member('m-2', 'bob@example.com', { roles: ['admin'], passwordHash: 'h' }))
    await members.insertMember(member('m-3', 'b.cat@example.com', { status: 'inactive', passwordId: 'pw-3' }))
    await members.insertMember(member('m-4', 'dan_x@example.com', { roles: ['planner', 'viewer'] }))
    const ids = async (q: Parameters<typeof members.searchMembers>[0]) => {
      const r = await members.searchMembers(q)
      return [r.members.map((m) => m.memberId), r.total]
    }
    const all = { limit: 10, offset: 0 }
    expect(await ids(all)).toEqual([['m-1', 'm-3', 'm-2', 'm-4'], 4])
    expect(await ids({ ...all, limit: 2, offset: 1 })).toEqual([['m-3', 'm-2'], 4])
    expect(await ids({ ...all, text: 'ANN' })).toEqual([['m-1'], 1])
    // LIKE wildcards in the text match themselves.
    expect(await ids({ ...all, text: '100%' })).toEqual([['m-1'], 1])
    expect(await ids({ ...all, text: '_' })).toEqual([['m-4'], 1])
    expect(await ids({ ...all, phone: '5550' })).toEqual([['m-1'], 1])
    expect(await ids({ ...all, memberIds: ['m-2', 'm-4', 'nope'] })).toEqual([['m-2', 'm-4'], 2])
    expect(await ids({ ...all, memberIds: [] })).toEqual([[], 0])
    expect(await ids({ ...all, emails: [' BOB@example.com'] })).toEqual([['m-2'], 1])
    expect(await ids({ ...all, statuses: ['inactive'] })).toEqual([['m-3'], 1])
    expect(await ids({ ...all, roles: ['admin', 'planner'] })).toEqual([['m-2', 'm-4'], 2])
    expect(await ids({ ...all, passwordExists: true })).toEqual([['m-2'], 1])
    expect(await ids({ ...all, passwordExists: false, roles: ['viewer'] })).toEqual([
      ['m-1', 'm-3', 'm-4'],
      3,
    ])
    expect((await members.memberByPasswordId('pw-3'))?.memberId).toBe('m-3')
    expect(await members.memberByPasswordId('nope')).toBeNull()
  })

  it('pages the audit log by actor, action, member and time', async () => {
    const { members } = t.stores
    const entry = (at: number, event: string, memberId: string | null, actorId: string | null = null) =>
      members.audit({ at, event, actorId, memberId, subject: null, ip: null, detail: { at } })
    await entry(100, 'member.disabled', 'm-1', 'admin')
    await entry(200, 'member.enabled', 'm-1', 'admin')
    await entry(200, 'session.started', 'm-2')
    await entry(300, 'member_x.other', 'm-2')
    await entry(400, 'alert.acknowledged', 'admin')
    const page = async (f: Partial<Parameters<typeof members.auditPage>[0]>) => {
      const r = await members.auditPage({ limit: 10, offset: 0, ...f })
      return [r.entries.map((e) => `${e.at}:${e.event}`), r.total]
    }
    expect(await page({})).toEqual([
      [
        '400:alert.acknowledged',
        '300:member_x.other',
        '200:session.started',
        '200:member.enabled',
        '100:member.disabled',
      ],
      5,
    ])
    // The admin acted on m-1, and acted on their own account once (no actor recorded).
    expect(await page({ actorId: 'admin' })).toEqual([
      ['400:alert.acknowledged', '200:member.enabled', '100:member.disabled'],
      3,
    ])
    expect(await page({ action: 'member.' })).toEqual([['200:member.enabled', '100:member.disabled'], 2])
    expect(await page({ action: 'session.started' })).toEqual([['200:session.started'], 1])
    expect(await page({ memberId: 'm-2' })).toEqual([['300:member_x.other', '200:session.started'], 2])
    expect(await page({ from: 200, to: 400 })).toEqual([
      ['300:member_x.other', '200:session.started', '200:member.enabled'],
      3,
    ])
    expect(await page({ limit: 2, offset: 1 })).toEqual([['300:member_x.other', '200:session.started'], 5])
    // Bounds that are not whole milliseconds answer as SQLite compares them.
    expect(await page({ from: 199.5, to: 300.5 })).toEqual([
      ['300:member_x.other', '200:session.started', '200:member.enabled'],
      3,
    ])
    expect(await page({ from: -Infinity, to: Infinity })).toEqual([expect.any(Array), 5])
    expect(await page({ from: Number.NaN })).toEqual([[], 0])
    const first = (await members.auditPage({ limit: 1, offset: 0 })).entries[0]
    expect(first).toMatchObject({
      event: 'alert.acknowledged',
      actorId: null,
      memberId: 'admin',
      detail: { at: 400 },
    })
    expect(typeof first?.id).toBe('number')
    expect(await members.auditEvents()).toEqual([
      'alert.acknowledged',
      'member.disabled',
      'member.enabled',
      'member_x.other',
      'session.started',
    ])
  })

  it('takes any string a client sends (a NUL finds nothing and is stored without failing)', async () => {
    const { members } = t.stores
    expect(await members.memberByEmail('a\0b@example.com')).toBeNull()
    expect(await members.sessionByTokenHash('x\0')).toBeNull()
    expect((await members.searchMembers({ text: '\0', emails: ['\0'], limit: 5, offset: 0 })).total).toBe(0)
    await members.audit({ at: 1, event: 'e', memberId: null, subject: 'a\0', ip: null, detail: { v: 'b\0' } })
    // Half a surrogate pair (not UTF-16 text) is kept as well as each store can.
    await members.audit({
      at: 2,
      event: 'e',
      memberId: null,
      subject: '\ud800',
      ip: null,
      detail: { v: 'x\udc00' },
    })
    await members.insertMember(member('m-s', 's@example.com', { name: '\ud800', roles: ['\udc00'] }))
    expect(await members.auditLog()).toHaveLength(2)
    expect((await members.memberById('m-s'))?.roles).toHaveLength(1)
  })

  if (kind === 'postgres')
    it('has no synchronous change stamp (the session check reads every time)', () => {
      expect(t.stores.members.changeStamp).toBeUndefined()
    })
})
