import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createAlertsStore, type AlertsStore } from './alertsStore'
import { createIdentityStore } from './identityStore'
import { ACCOUNTS_MIGRATIONS_DIR } from './accountsDb'
import { migrate } from './migrate'

let db: Database.Database
let acks: AlertsStore
const ann = { memberId: 'member-ann', ip: '10.0.0.1', detail: { ruleId: 'r' } }
const bob = { memberId: 'member-bob', ip: null }
const events = () =>
  createIdentityStore(db)
    .auditLog()
    .map((e) => [e.event, e.memberId, e.subject])
    .reverse()

beforeEach(() => {
  db = new Database(':memory:')
  migrate(db, ACCOUNTS_MIGRATIONS_DIR)
  acks = createAlertsStore(db)
})

afterEach(() => db.close())

describe('alertsStore', () => {
  it('keeps the first acknowledgement time per member and audits it once', () => {
    expect(acks.acknowledge('r:1', ann, 1000)).toBe(1000)
    expect(acks.acknowledge('r:1', ann, 2000)).toBe(1000)
    expect(acks.acknowledge('r:1', bob, 3000)).toBe(3000)
    expect([...acks.acknowledgements('member-ann')]).toEqual([['r:1', 1000]])
    expect([...acks.acknowledgements('member-bob')]).toEqual([['r:1', 3000]])
    expect(events()).toEqual([
      ['alert.acknowledged', 'member-ann', 'r:1'],
      ['alert.acknowledged', 'member-bob', 'r:1'],
    ])
  })

  it('removes one member’s acknowledgement and audits only a real removal', () => {
    acks.acknowledge('r:1', ann, 1000)
    acks.acknowledge('r:1', bob, 1000)
    expect(acks.unacknowledge('r:1', ann, 2000)).toBe(true)
    expect(acks.unacknowledge('r:1', ann, 3000)).toBe(false)
    expect(acks.acknowledgements('member-ann').size).toBe(0)
    expect(acks.acknowledgements('member-bob').size).toBe(1)
    expect(events().filter(([e]) => e === 'alert.unacknowledged')).toEqual([
      ['alert.unacknowledged', 'member-ann', 'r:1'],
    ])
  })
})
