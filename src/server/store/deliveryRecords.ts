// The delivery records (notices, jobs, log entries) both stores and their row mappers share, apart
// from the stores, so deliveryRows and deliveryStore depend on this file and not on each other.

/** One member's notice of one episode of one alert (table alert_notices, migration 110). */
export interface Notice {
  memberId: string
  alertId: string
  episode: number
  severity: string
  /** The message fields when the alert was raised (src/server/delivery/messageFields.ts). */
  fields: Record<string, string>
  /** pending → (held) → sent; or cleared, acknowledged, unsubscribed, done (no more reminders). */
  state: string
  queuedAt: number
  sentAt: number | null
  reminders: number
  nextReminderAt: number | null
}

/** A message to send (or being retried) on one channel (table delivery_jobs). */
export interface DeliveryJob {
  id: number
  memberId: string
  channel: 'sms' | 'email'
  kind: 'alert' | 'digest' | 'reminder'
  alertIds: string[]
  recipient: string
  subject: string | null
  text: string
  link: string
  attempts: number
  nextAt: number
  /** queued (waiting for its next attempt), sent, failed (attempts used up). */
  state: string
}

/** One line of the delivery log admins read (table delivery_log). */
export interface DeliveryLogEntry {
  id: number
  at: number
  jobId: number | null
  memberId: string
  channel: string | null
  kind: string
  alertIds: string[]
  /** queued, sent, failed, retry_scheduled, gave_up, held, no_recipient, cleared, acknowledged, unsubscribed */
  event: string
  attempt: number | null
  detail: string | null
}
