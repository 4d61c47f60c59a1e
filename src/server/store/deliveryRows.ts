import type { DeliveryJob, DeliveryLogEntry, Notice } from './deliveryRecords'

/**
 * The delivery tables' rows as both stores read them, and their mapping to records. `J` is how a
 * JSON column arrives: text from SQLite, the parsed value from PostgreSQL's jsonb.
 */
export interface NoticeRow<J> {
  member_id: string
  alert_id: string
  episode: number
  severity: string
  fields: J
  state: string
  queued_at: number
  sent_at: number | null
  reminders: number
  next_reminder_at: number | null
}

export interface JobRow<J> {
  id: number
  member_id: string
  channel: string
  kind: string
  alert_ids: J
  recipient: string
  subject: string | null
  text: string
  link: string
  attempts: number
  next_at: number
  state: string
}

export interface LogRow<J> {
  id: number
  at: number
  job_id: number | null
  member_id: string
  channel: string | null
  kind: string
  alert_ids: J
  event: string
  attempt: number | null
  detail: string | null
}

/** A JSON column of SQLite (text; unreadable text reads as null). */
export function jsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

/** A jsonb column of PostgreSQL (the driver has parsed it). */
export const jsonValue = (value: unknown): unknown => value

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []
const fieldsOf = (v: unknown): Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : {}

/** Row → record mappers for a store whose JSON columns `json` decodes. */
export function deliveryRowMappers<J>(json: (column: J) => unknown) {
  return {
    notice: (r: NoticeRow<J>): Notice => ({
      memberId: r.member_id,
      alertId: r.alert_id,
      episode: r.episode,
      severity: r.severity,
      fields: fieldsOf(json(r.fields)),
      state: r.state,
      queuedAt: r.queued_at,
      sentAt: r.sent_at,
      reminders: r.reminders,
      nextReminderAt: r.next_reminder_at,
    }),
    job: (r: JobRow<J>): DeliveryJob => ({
      id: r.id,
      memberId: r.member_id,
      channel: r.channel === 'email' ? 'email' : 'sms',
      kind: r.kind === 'digest' || r.kind === 'reminder' ? r.kind : 'alert',
      alertIds: strings(json(r.alert_ids)),
      recipient: r.recipient,
      subject: r.subject,
      text: r.text,
      link: r.link,
      attempts: r.attempts,
      nextAt: r.next_at,
      state: r.state,
    }),
    log: (r: LogRow<J>): DeliveryLogEntry => ({
      id: r.id,
      at: r.at,
      jobId: r.job_id,
      memberId: r.member_id,
      channel: r.channel,
      kind: r.kind,
      alertIds: strings(json(r.alert_ids)),
      event: r.event,
      attempt: r.attempt,
      detail: r.detail,
    }),
  }
}
