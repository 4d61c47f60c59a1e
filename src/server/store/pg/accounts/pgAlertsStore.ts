import type { AckActor, AlertsStore } from '../../alertsStore'
import type { PgDatabase } from '../pgDatabase'
import { nulSafe } from './nulSafe'
import { pgAudit } from './pgAudit'
import { ackAudit } from '../../rows/alertRows'

/** Alert acknowledgements per member in PostgreSQL, audited in identity_audit in the same transaction. */
export function createPgAlertsStore(pg: PgDatabase): AlertsStore {
  const db = nulSafe(pg)
  const audit = (event: string, alertId: string, actor: AckActor, at: number) =>
    pgAudit(db, ackAudit(event, alertId, actor, at))

  return {
    async acknowledgements(memberId: string): Promise<Map<string, number>> {
      const rows = await db.query<{ alert_id: string; at: number }>(
        'SELECT alert_id, at FROM alert_acks WHERE member_id = $1',
        [memberId],
      )
      return new Map(rows.map((r) => [r.alert_id, r.at]))
    },
    /** Two servers acknowledging at once: one inserts (and audits), the other reads its time. */
    acknowledge(alertId: string, actor: AckActor, at: number): Promise<number> {
      return db.tx(async () => {
        const created = await db.one<{ at: number }>(
          `INSERT INTO alert_acks (alert_id, member_id, at) VALUES ($1, $2, $3)
           ON CONFLICT (alert_id, member_id) DO NOTHING RETURNING at`,
          [alertId, actor.memberId, at],
        )
        if (created) {
          await audit('alert.acknowledged', alertId, actor, at)
          return created.at
        }
        const first = await db.one<{ at: number }>(
          'SELECT at FROM alert_acks WHERE alert_id = $1 AND member_id = $2',
          [alertId, actor.memberId],
        )
        return first?.at ?? at
      })
    },
    unacknowledge(alertId: string, actor: AckActor, at: number): Promise<boolean> {
      return db.tx(async () => {
        const removed =
          (await db.run('DELETE FROM alert_acks WHERE alert_id = $1 AND member_id = $2', [
            alertId,
            actor.memberId,
          ])) > 0
        if (removed) await audit('alert.unacknowledged', alertId, actor, at)
        return removed
      })
    },
  }
}
