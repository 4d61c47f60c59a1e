import { describe, expect, it } from 'vitest'
import type { MemberRecord } from '../store/identityStore'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from '../store/pg/accounts/testing/bothAccountStores'
import { memberRecord } from '../store/testing/memberRecord'

const ADMIN_ROLES = ['stytch_admin']

const member = (id: string, roles: string[]): MemberRecord => memberRecord(id, { organizationId: 'o', roles })

describe.each(ACCOUNT_STORE_KINDS)('updateMemberKeepingAdmin (%s)', (kind) => {
  const t = accountStoresFor(kind)

  it('refuses the change that would leave no active administrator, and changes nothing then', async () => {
    const { members } = t.stores
    await members.insertMember(member('a', ['stytch_admin']))
    await members.insertMember(member('b', ['stytch_admin', 'stytch_member']))
    await members.insertMember(member('m', ['stytch_member']))
    expect(await members.updateMemberKeepingAdmin('a', { roles: ['stytch_member'] }, 1, ADMIN_ROLES)).toBe(
      true,
    )
    expect(await members.updateMemberKeepingAdmin('b', { status: 'inactive' }, 2, ADMIN_ROLES)).toBe(false)
    expect(await members.memberById('b')).toMatchObject({ status: 'active', updatedAt: 0 })
    expect(await members.updateMemberKeepingAdmin('m', { status: 'inactive' }, 3, ADMIN_ROLES)).toBe(true)
    expect(await members.updateMemberKeepingAdmin('b', { name: 'B' }, 4, ADMIN_ROLES)).toBe(true)
  })

  it('keeps one of ten administrators all disabled at the same time', async () => {
    const { members } = t.stores
    const ids = Array.from({ length: 10 }, (_, i) => `admin-${i}`)
    for (const id of ids) await members.insertMember(member(id, ['stytch_admin']))
    const results = await Promise.all(
      ids.map((id) => members.updateMemberKeepingAdmin(id, { status: 'inactive' }, 1, ADMIN_ROLES)),
    )
    expect(results.filter(Boolean)).toHaveLength(9)
    expect((await members.listMembers()).filter((m) => m.status === 'active')).toHaveLength(1)
  })
})
