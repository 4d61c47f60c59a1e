import type { FastifyInstance } from 'fastify'
import { appConfig, type DeliverySettings, operationsConfig } from '../../shared/config'
import { createAlertChannels, type SendAlertMessage } from './alertChannels'
import { DeliveryEngine } from './DeliveryEngine'

export interface AlertDeliveryOptions {
  /** Defaults to operationsConfig.delivery; without it nothing is delivered (null). */
  settings?: DeliverySettings
  /** Defaults to process.env (gateways, EMBERLINE_PUBLIC_URL, HOST, PORT). */
  env?: Record<string, string | undefined>
  /** Defaults to the outbox / webhook channels. */
  send?: SendAlertMessage
  now?: () => number
}

/** The base of links in messages: EMBERLINE_PUBLIC_URL, else the address the server listens on. */
export function publicBaseUrl(env: Record<string, string | undefined>): string {
  if (env.EMBERLINE_PUBLIC_URL) return env.EMBERLINE_PUBLIC_URL.replace(/\/+$/, '')
  return `http://${env.HOST ?? '127.0.0.1'}:${env.PORT ?? '8080'}`
}

/** The app's alert delivery over its accounts database, or null when config has no `delivery`. */
export function createAlertDelivery(
  app: FastifyInstance,
  opts: AlertDeliveryOptions = {},
): DeliveryEngine | null {
  const settings = opts.settings ?? operationsConfig.delivery
  if (!settings) return null
  const env = opts.env ?? process.env
  const identity = app.store.members
  return new DeliveryEngine({
    settings,
    severityLabels: new Map(operationsConfig.alerts.severities.map((s) => [s.id, s.label])),
    // Jobs a stopped server was sending are requeued by the engine's first tick (the leader's).
    store: app.store.delivery,
    subscriptions: app.store.subscriptions,
    recipient: async (memberId) => {
      const m = await identity.memberById(memberId)
      return m ? { phone: m.phone, email: m.email, active: m.status === 'active' } : null
    },
    send: opts.send ?? createAlertChannels({ dataDir: app.appOptions.dataDir, env }),
    baseUrl: publicBaseUrl(env),
    timeZone: settings.timeZone ?? appConfig.demo.timeZone,
    now: opts.now ?? Date.now,
    warn: (message, err) => app.log.warn({ err }, message),
  })
}
