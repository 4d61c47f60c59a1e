import type {
  AlertSubscription,
  AlertSubscriptionStore,
  SubscriptionActor,
} from '../../alertSubscriptionStore'
import type { PgDatabase } from '../pgDatabase'
import { nulSafe } from './nulSafe'
import { pgAudit } from './pgAudit'
import { pgJson } from './pgJson'

interface Row {
  member_id: string
  rules: unknown
  severities: unknown
  channel: string
  quiet_start: string | null
  quiet_end: string | null
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []

const subscriptionOf = (row: Row): AlertSubscription => ({
  rules: strings(row.rules),
  severities: strings(row.severities),
  channel: row.channel === 'email' || row.channel === 'both' ? row.channel : 'sms',
  quietHours:
    row.quiet_start !== null && row.quiet_end !== null
      ? { start: row.quiet_start, end: row.quiet_end }
      : null,
})

/** Members' alert subscriptions in PostgreSQL; a change and its audit entry commit together. */
export function createPgAlertSubscriptionStore(pg: PgDatabase): AlertSubscriptionStore {
  const db = nulSafe(pg)
  return {
    async read(memberId: string): Promise<AlertSubscription | null> {
      const row = await db.one<Row>('SELECT * FROM alert_subscriptions WHERE member_id = $1', [memberId])
      return row ? subscriptionOf(row) : null
    },
    async all(): Promise<Map<string, AlertSubscription>> {
      const rows = await db.query<Row>('SELECT * FROM alert_subscriptions ORDER BY member_id')
      return new Map(rows.map((row) => [row.member_id, subscriptionOf(row)]))
    },
    write(memberId: string, s: AlertSubscription, actor: SubscriptionActor, at: number): Promise<void> {
      return db.tx(async () => {
        await db.run(
          `INSERT INTO alert_subscriptions (member_id, rules, severities, channel, quiet_start, quiet_end, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT (member_id) DO UPDATE SET rules = excluded.rules, severities = excluded.severities,
             channel = excluded.channel, quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,
             updated_at = excluded.updated_at`,
          [
            memberId,
            pgJson(s.rules),
            pgJson(s.severities),
            s.channel,
            s.quietHours?.start ?? null,
            s.quietHours?.end ?? null,
            at,
          ],
        )
        await pgAudit(db, {
          at,
          event: 'alert.subscription_changed',
          memberId: actor.memberId,
          subject: memberId,
          ip: actor.ip,
          detail: { ...s },
        })
      })
    },
  }
}
