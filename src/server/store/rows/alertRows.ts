import type { AuditEntry } from '../identityRecords'
import type { AckActor, AlertSubscription, SubscriptionActor } from '../alertRecords'
import type { ColumnCodec } from './codec'

// Alert acknowledgements' and subscriptions' rows as both stores read and write them, and the audit
// entries their changes write to identity_audit.

/** The audit entry of an acknowledgement given or taken back. */
export const ackAudit = (event: string, alertId: string, actor: AckActor, at: number): AuditEntry => ({
  at,
  event,
  memberId: actor.memberId,
  subject: alertId,
  ip: actor.ip,
  detail: actor.detail ?? {},
})

export interface SubscriptionRow {
  member_id: string
  rules: unknown
  severities: unknown
  channel: string
  quiet_start: string | null
  quiet_end: string | null
}

export const SUBSCRIPTION_COLUMNS = [
  'member_id',
  'rules',
  'severities',
  'channel',
  'quiet_start',
  'quiet_end',
  'updated_at',
] as const

/** The strings of a JSON array column (anything else, or unreadable text, reads as none). */
const strings = (c: ColumnCodec, column: unknown): string[] => {
  const v = c.jsonOrNull(column)
  return Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []
}

export const subscriptionFromRow = (c: ColumnCodec, row: SubscriptionRow): AlertSubscription => ({
  rules: strings(c, row.rules),
  severities: strings(c, row.severities),
  channel: row.channel === 'email' || row.channel === 'both' ? row.channel : 'sms',
  quietHours:
    row.quiet_start !== null && row.quiet_end !== null
      ? { start: row.quiet_start, end: row.quiet_end }
      : null,
})

export const subscriptionToParams = (
  c: ColumnCodec,
  memberId: string,
  s: AlertSubscription,
  at: number,
): unknown[] => [
  memberId,
  c.jsonParam(s.rules),
  c.jsonParam(s.severities),
  s.channel,
  s.quietHours?.start ?? null,
  s.quietHours?.end ?? null,
  at,
]

/** The audit entry of a subscription written. */
export const subscriptionAudit = (
  memberId: string,
  s: AlertSubscription,
  actor: SubscriptionActor,
  at: number,
): AuditEntry => ({
  at,
  event: 'alert.subscription_changed',
  memberId: actor.memberId,
  subject: memberId,
  ip: actor.ip,
  detail: { ...s },
})
