import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import type { AckActor } from './alertRecords'
import { auditWriter } from './identityStore'
import { ackAudit } from './rows/alertRows'

export type { AckActor } from './alertRecords'

/** Alert acknowledgements per member (table alert_acks, migration 080), audited in identity_audit. */
export interface AlertsStore {
  /** alert id → acknowledged at (ms) for one member. */
  acknowledgements(memberId: string): Awaitable<Map<string, number>>
  /** Idempotent: answers the first acknowledgement time; audits only a new acknowledgement (one transaction). */
  acknowledge(alertId: string, actor: AckActor, at: number): Awaitable<number>
  /** Removes the member's acknowledgement; false when there was none. Audits a removal (one transaction). */
  unacknowledge(alertId: string, actor: AckActor, at: number): Awaitable<boolean>
}

export function createAlertsStore(db: Database.Database): AlertsStore {
  const writeAudit = auditWriter(db)
  const list = db.prepare<[string], { alert_id: string; at: number }>(
    'SELECT alert_id, at FROM alert_acks WHERE member_id = ?',
  )
  const insert = db.prepare('INSERT OR IGNORE INTO alert_acks (alert_id, member_id, at) VALUES (?, ?, ?)')
  const select = db
    .prepare<[string, string], number>('SELECT at FROM alert_acks WHERE alert_id = ? AND member_id = ?')
    .pluck()
  const remove = db.prepare('DELETE FROM alert_acks WHERE alert_id = ? AND member_id = ?')
  const audit = (event: string, alertId: string, actor: AckActor, at: number) =>
    writeAudit(ackAudit(event, alertId, actor, at))

  const acknowledge = db.transaction((alertId: string, actor: AckActor, at: number): number => {
    const created = insert.run(alertId, actor.memberId, at).changes > 0
    if (created) audit('alert.acknowledged', alertId, actor, at)
    return select.get(alertId, actor.memberId) ?? at
  })
  const unacknowledge = db.transaction((alertId: string, actor: AckActor, at: number): boolean => {
    const removed = remove.run(alertId, actor.memberId).changes > 0
    if (removed) audit('alert.unacknowledged', alertId, actor, at)
    return removed
  })

  return {
    acknowledgements: (memberId) => new Map(list.all(memberId).map((r) => [r.alert_id, r.at])),
    acknowledge: (alertId, actor, at) => acknowledge(alertId, actor, at),
    unacknowledge: (alertId, actor, at) => unacknowledge(alertId, actor, at),
  }
}
