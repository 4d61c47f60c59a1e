import { authFetch } from '../session'
import { requestJson, SettingsError } from './apiRequest'

export type ChannelChoice = 'sms' | 'email' | 'both'

export interface QuietHours {
  readonly start: string
  readonly end: string
}

/** Which alerts reach the member and how (GET/PUT /api/me/alert-subscription). */
export interface AlertSubscription {
  readonly rules: readonly string[]
  readonly severities: readonly string[]
  readonly channel: ChannelChoice
  readonly quietHours: QuietHours | null
}

export interface SubscriptionOptions {
  readonly rules: readonly { id: string; title: string; severity: string }[]
  readonly severities: readonly { id: string; label: string }[]
  readonly channels: readonly ChannelChoice[]
  readonly bypassQuietHours: readonly string[]
  readonly timeZone: string | null
  readonly digestWindowMinutes: number
  readonly reminderIntervalMinutes: number
}

/** The member's subscription (null before the first save) and the choices; null when delivery is off. */
export interface SubscriptionState {
  readonly subscription: AlertSubscription | null
  readonly options: SubscriptionOptions
}

/** One line of the delivery log (GET /api/admin/alert-deliveries). */
export interface DeliveryLogEntry {
  readonly id: number
  readonly at: string
  readonly memberEmail: string | null
  readonly memberId: string
  readonly channel: string | null
  readonly kind: string
  readonly alertIds: readonly string[]
  readonly event: string
  readonly attempt: number | null
  readonly detail: string | null
}

type Fetcher = typeof authFetch

const call = (fetcher: Fetcher, url: string, init?: RequestInit): Promise<unknown> =>
  requestJson(url, init, fetcher)

/** The subscription and its choices, or null when the server has no alert delivery configured (404). */
export async function fetchSubscription(fetcher: Fetcher = authFetch): Promise<SubscriptionState | null> {
  try {
    return (await call(fetcher, '/api/me/alert-subscription')) as SubscriptionState
  } catch (error) {
    if (error instanceof SettingsError && error.status === 404) return null
    throw error
  }
}

export async function saveSubscription(
  subscription: AlertSubscription,
  fetcher: Fetcher = authFetch,
): Promise<AlertSubscription> {
  const body = (await call(fetcher, '/api/me/alert-subscription', {
    method: 'PUT',
    body: JSON.stringify(subscription),
  })) as { subscription: AlertSubscription }
  return body.subscription
}

/** The newest delivery log entries, or null when the member may not read them (403). */
export async function fetchDeliveryLog(fetcher: Fetcher = authFetch): Promise<DeliveryLogEntry[] | null> {
  try {
    const body = (await call(fetcher, '/api/admin/alert-deliveries?limit=200')) as {
      entries: DeliveryLogEntry[]
    }
    return body.entries
  } catch (error) {
    if (error instanceof SettingsError && error.status === 403) return null
    throw error
  }
}
