import { describe, expect, it } from 'vitest'
import { ACCOUNT_STORE_KINDS, accountStoresFor } from './pg/accounts/testing/bothAccountStores'

const ann = { memberId: 'member-ann', ip: '10.0.0.1', detail: { ruleId: 'r' } }
const bob = { memberId: 'member-bob', ip: null }

// The same assertions on the SQLite and the PostgreSQL store (issue #19).
describe.each(ACCOUNT_STORE_KINDS)('alertsStore (%s)', (kind) => {
  const t = accountStoresFor(kind)
  const events = async () =>
    (await t.stores.members.auditLog()).map((e) => [e.event, e.memberId, e.subject, e.detail]).reverse()

  it('keeps the first acknowledgement time per member and audits it once', async () => {
    const { acks } = t.stores
    expect(await acks.acknowledge('r:1', ann, 1000)).toBe(1000)
    expect(await acks.acknowledge('r:1', ann, 2000)).toBe(1000)
    expect(await acks.acknowledge('r:1', bob, 3000)).toBe(3000)
    expect([...(await acks.acknowledgements('member-ann'))]).toEqual([['r:1', 1000]])
    expect([...(await acks.acknowledgements('member-bob'))]).toEqual([['r:1', 3000]])
    expect(await events()).toEqual([
      ['alert.acknowledged', 'member-ann', 'r:1', { ruleId: 'r' }],
      ['alert.acknowledged', 'member-bob', 'r:1', {}],
    ])
  })

  it('removes one member’s acknowledgement and audits only a real removal', async () => {
    const { acks } = t.stores
    await acks.acknowledge('r:1', ann, 1000)
    await acks.acknowledge('r:1', bob, 1000)
    expect(await acks.unacknowledge('r:1', ann, 2000)).toBe(true)
    expect(await acks.unacknowledge('r:1', ann, 3000)).toBe(false)
    expect((await acks.acknowledgements('member-ann')).size).toBe(0)
    expect((await acks.acknowledgements('member-bob')).size).toBe(1)
    expect((await events()).filter(([e]) => e === 'alert.unacknowledged')).toEqual([
      ['alert.unacknowledged', 'member-ann', 'r:1', { ruleId: 'r' }],
    ])
  })
})
