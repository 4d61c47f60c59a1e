import type { DeliveryJob, DeliveryLogEntry, Notice } from '../deliveryRecords'
import type { ColumnCodec } from './codec'

/**
 * The delivery tables' rows as both stores read them, their mapping to records and back to
 * statement parameters. JSON columns (`unknown` here) go through the dialect's codec; an unreadable
 * one reads as empty.
 */
export interface NoticeRow {
  member_id: string
  alert_id: string
  episode: number
  severity: string
  fields: unknown
  state: string
  queued_at: number
  sent_at: number | null
  reminders: number
  next_reminder_at: number | null
}

export interface JobRow {
  id: number
  member_id: string
  channel: string
  kind: string
  alert_ids: unknown
  recipient: string
  subject: string | null
  text: string
  link: string
  attempts: number
  next_at: number
  state: string
}

export interface LogRow {
  id: number
  at: number
  job_id: number | null
  member_id: string
  channel: string | null
  kind: string
  alert_ids: unknown
  event: string
  attempt: number | null
  detail: string | null
}

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []
const fieldsOf = (v: unknown): Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, string>) : {}

/** Row → record mappers for a store whose JSON columns the codec `c` decodes. */
export function deliveryRowMappers(c: ColumnCodec) {
  const json = (column: unknown): unknown => c.jsonOrNull(column)
  return {
    notice: (r: NoticeRow): Notice => ({
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
    job: (r: JobRow): DeliveryJob => ({
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
    log: (r: LogRow): DeliveryLogEntry => ({
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

/** The columns of a new notice (pending). */
export const NOTICE_COLUMNS = [
  'member_id',
  'alert_id',
  'episode',
  'severity',
  'fields',
  'state',
  'queued_at',
] as const

export const noticeToParams = (
  c: ColumnCodec,
  n: Omit<Notice, 'state' | 'sentAt' | 'reminders' | 'nextReminderAt'>,
): unknown[] => [n.memberId, n.alertId, n.episode, n.severity, c.jsonParam(n.fields), 'pending', n.queuedAt]

/** A notice's change of state (sent, a reminder, given up). */
export interface NoticeChange {
  state: string
  sentAt?: number
  reminders: number
  nextReminderAt: number | null
}

/**
 * The parameters of `UPDATE alert_notices SET state, sent_at = coalesce(sent_at'), reminders,
 * next_reminder_at WHERE member_id, alert_id, episode`, in that order (both stores).
 */
export const noticeUpdateParams = (
  key: { memberId: string; alertId: string; episode: number },
  change: NoticeChange,
): unknown[] => [
  change.state,
  change.sentAt ?? null,
  change.reminders,
  change.nextReminderAt,
  key.memberId,
  key.alertId,
  key.episode,
]

/** The columns of a new job (queued, not yet tried). */
export const JOB_COLUMNS = [
  'member_id',
  'channel',
  'kind',
  'alert_ids',
  'recipient',
  'subject',
  'text',
  'link',
  'attempts',
  'next_at',
  'state',
  'created_at',
] as const

export const jobToParams = (
  c: ColumnCodec,
  job: Omit<DeliveryJob, 'id' | 'attempts' | 'state'>,
  at: number,
): unknown[] => [
  job.memberId,
  job.channel,
  job.kind,
  c.jsonParam(job.alertIds),
  job.recipient,
  job.subject,
  job.text,
  job.link,
  0,
  job.nextAt,
  'queued',
  at,
]

export const LOG_COLUMNS = [
  'at',
  'job_id',
  'member_id',
  'channel',
  'kind',
  'alert_ids',
  'event',
  'attempt',
  'detail',
] as const

export const logToParams = (c: ColumnCodec, e: Omit<DeliveryLogEntry, 'id'>): unknown[] => [
  e.at,
  e.jobId,
  e.memberId,
  e.channel,
  e.kind,
  c.jsonParam(e.alertIds),
  e.event,
  e.attempt,
  e.detail,
]
