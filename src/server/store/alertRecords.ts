// The records of alert acknowledgements and subscriptions, apart from the stores that read and write
// them, so the stores and their row mappers (rows/alertRows.ts) both depend on this file.

/** Who changed an acknowledgement, for the audit log. */
export interface AckActor {
  memberId: string
  ip: string | null
  /** Extra audit detail (e.g. the rule id). */
  detail?: Record<string, unknown>
}

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
