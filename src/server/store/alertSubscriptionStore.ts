import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import { auditWriter } from './identityStore'

export type DeliveryChannelChoice = 'sms' | 'email' | 'both'

/** Local clock times 'HH:MM'; the quiet period runs from start to end (across midnight when end < start). */
export interface QuietHours {
  start: string
  end: string
}

/** Which alerts reach a member and how (table alert_subscriptions, migration 110). */
export interface AlertSubscription {
  rules: string[]
  severities: string[]
  channel: DeliveryChannelChoice
  quietHours: QuietHours | null
}

export interface SubscriptionActor {
  memberId: string
  ip: string | null
}

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

interface Row {
  member_id: string
  rules: string
  severities: string
  channel: string
  quiet_start: string | null
  quiet_end: string | null
}

const strings = (json: string): string[] => {
  try {
    const parsed: unknown = JSON.parse(json)
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : []
  } catch {
    return []
  }
}

const toSubscription = (row: Row): AlertSubscription => ({
  rules: strings(row.rules),
  severities: strings(row.severities),
  channel: row.channel === 'email' || row.channel === 'both' ? row.channel : 'sms',
  quietHours:
    row.quiet_start !== null && row.quiet_end !== null
      ? { start: row.quiet_start, end: row.quiet_end }
      : null,
})

export function createAlertSubscriptionStore(db: Database.Database): AlertSubscriptionStore {
  const writeAudit = auditWriter(db)
  const one = db.prepare<[string], Row>('SELECT * FROM alert_subscriptions WHERE member_id = ?')
  const every = db.prepare<[], Row>('SELECT * FROM alert_subscriptions ORDER BY member_id')
  const upsert = db.prepare(
    `INSERT INTO alert_subscriptions (member_id, rules, severities, channel, quiet_start, quiet_end, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(member_id) DO UPDATE SET rules = excluded.rules, severities = excluded.severities,
       channel = excluded.channel, quiet_start = excluded.quiet_start, quiet_end = excluded.quiet_end,
       updated_at = excluded.updated_at`,
  )
  const write = db.transaction(
    (memberId: string, s: AlertSubscription, actor: SubscriptionActor, at: number) => {
      upsert.run(
        memberId,
        JSON.stringify(s.rules),
        JSON.stringify(s.severities),
        s.channel,
        s.quietHours?.start ?? null,
        s.quietHours?.end ?? null,
        at,
      )
      writeAudit({
        at,
        event: 'alert.subscription_changed',
        memberId: actor.memberId,
        subject: memberId,
        ip: actor.ip,
        detail: { ...s },
      })
    },
  )
  return {
    read: (memberId) => {
      const row = one.get(memberId)
      return row ? toSubscription(row) : null
    },
    all: () => new Map(every.all().map((row) => [row.member_id, toSubscription(row)])),
    write: (memberId, s, actor, at) => write(memberId, s, actor, at),
  }
}
