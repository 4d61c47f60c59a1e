import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import type { AlertSubscription, SubscriptionActor } from './alertRecords'
import { auditWriter } from './identityStore'
import { sqliteCodec as codec, upsertInto } from './rows/codec'
import {
  SUBSCRIPTION_COLUMNS,
  subscriptionAudit,
  subscriptionFromRow,
  subscriptionToParams,
  type SubscriptionRow,
} from './rows/alertRows'

export type { AlertSubscription, DeliveryChannelChoice, QuietHours, SubscriptionActor } from './alertRecords'

export interface AlertSubscriptionStore {
  /** The member's subscription, or null when they never subscribed. */
  read(memberId: string): Awaitable<AlertSubscription | null>
  /** Every stored subscription (member id → subscription). */
  all(): Awaitable<Map<string, AlertSubscription>>
  /** Replaces the member's subscription and writes `alert.subscription_changed` to the audit log (one transaction). */
  write(
    memberId: string,
    subscription: AlertSubscription,
    actor: SubscriptionActor,
    at: number,
  ): Awaitable<void>
}

export function createAlertSubscriptionStore(db: Database.Database): AlertSubscriptionStore {
  const writeAudit = auditWriter(db)
  const one = db.prepare<[string], SubscriptionRow>('SELECT * FROM alert_subscriptions WHERE member_id = ?')
  const every = db.prepare<[], SubscriptionRow>('SELECT * FROM alert_subscriptions ORDER BY member_id')
  const upsert = db.prepare(upsertInto(codec, 'alert_subscriptions', SUBSCRIPTION_COLUMNS, 'member_id'))
  const write = db.transaction(
    (memberId: string, s: AlertSubscription, actor: SubscriptionActor, at: number) => {
      upsert.run(subscriptionToParams(codec, memberId, s, at))
      writeAudit(subscriptionAudit(memberId, s, actor, at))
    },
  )
  return {
    read: (memberId) => {
      const row = one.get(memberId)
      return row ? subscriptionFromRow(codec, row) : null
    },
    all: () => new Map(every.all().map((row) => [row.member_id, subscriptionFromRow(codec, row)])),
    write: (memberId, s, actor, at) => write(memberId, s, actor, at),
  }
}
