import type {
  AlertSubscription,
  AlertSubscriptionStore,
  SubscriptionActor,
} from '../../alertSubscriptionStore'
import type { PgDatabase } from '../pgDatabase'
import { nulSafe } from './nulSafe'
import { pgAudit } from './pgAudit'
import { pgCodec as codec, upsertInto } from '../../rows/codec'
import {
  SUBSCRIPTION_COLUMNS,
  subscriptionAudit,
  subscriptionFromRow,
  subscriptionToParams,
  type SubscriptionRow as Row,
} from '../../rows/alertRows'

/** Members' alert subscriptions in PostgreSQL; a change and its audit entry commit together. */
export function createPgAlertSubscriptionStore(pg: PgDatabase): AlertSubscriptionStore {
  const db = nulSafe(pg)
  return {
    async read(memberId: string): Promise<AlertSubscription | null> {
      const row = await db.one<Row>('SELECT * FROM alert_subscriptions WHERE member_id = $1', [memberId])
      return row ? subscriptionFromRow(codec, row) : null
    },
    async all(): Promise<Map<string, AlertSubscription>> {
      const rows = await db.query<Row>('SELECT * FROM alert_subscriptions ORDER BY member_id')
      return new Map(rows.map((row) => [row.member_id, subscriptionFromRow(codec, row)]))
    },
    write(memberId: string, s: AlertSubscription, actor: SubscriptionActor, at: number): Promise<void> {
      return db.tx(async () => {
        await db.run(
          upsertInto(codec, 'alert_subscriptions', SUBSCRIPTION_COLUMNS, 'member_id'),
          subscriptionToParams(codec, memberId, s, at),
        )
        await pgAudit(db, subscriptionAudit(memberId, s, actor, at))
      })
    },
  }
}
