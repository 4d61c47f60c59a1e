import type { FastifyInstance } from 'fastify'
import { type DeliverySettings, operationsConfig } from '../../shared/config'
import { sessionOf } from '../auth/routeAuth'
import { badRequest, notFound } from '../http/httpErrors'
import type { AlertSubscription, AlertSubscriptionStore } from '../store/alertSubscriptionStore'

export interface SubscriptionRoutesOptions {
  settings: DeliverySettings | undefined
  store?: AlertSubscriptionStore
  now?: () => number
}

const ids = {
  type: 'array',
  maxItems: 200,
  uniqueItems: true,
  items: { type: 'string', maxLength: 200 },
} as const
const clock = { type: 'string', pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' } as const

const body = {
  type: 'object',
  additionalProperties: false,
  required: ['rules', 'severities', 'channel'],
  properties: {
    rules: ids,
    severities: ids,
    channel: { type: 'string', enum: ['sms', 'email', 'both'] },
    quietHours: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          additionalProperties: false,
          required: ['start', 'end'],
          properties: { start: clock, end: clock },
        },
      ],
    },
  },
} as const

interface Body {
  rules: string[]
  severities: string[]
  channel: AlertSubscription['channel']
  quietHours?: AlertSubscription['quietHours']
}

const NOT_CONFIGURED = 'Alert delivery is not configured'

/**
 * GET/PUT /api/me/alert-subscription: which alert rules and severities reach the signed-in member,
 * by which channel, and their quiet hours. Stored per member (alert_subscriptions) and audited
 * (`alert.subscription_changed`). An empty rule or severity list receives nothing.
 */
export async function subscriptionRoutes(
  app: FastifyInstance,
  opts: SubscriptionRoutesOptions,
): Promise<void> {
  const store = opts.store ?? app.store.subscriptions
  const now = opts.now ?? Date.now
  const { rules, severities } = operationsConfig.alerts
  const channels = opts.settings?.channels ?? []
  const choices = channels.length > 1 ? [...channels, 'both'] : [...channels]

  app.get('/api/me/alert-subscription', async (request, reply) => {
    if (!opts.settings) return notFound(reply, NOT_CONFIGURED)
    reply.header('cache-control', 'no-store')
    return {
      subscription: await store.read(sessionOf(request).memberId),
      options: {
        rules: rules.map((r) => ({ id: r.id, title: r.title, severity: r.severity })),
        severities: severities.map((s) => ({ id: s.id, label: s.label })),
        channels: choices,
        bypassQuietHours: opts.settings.bypassQuietHours ?? severities.slice(0, 1).map((s) => s.id),
        timeZone: opts.settings.timeZone ?? null,
        digestWindowMinutes: opts.settings.digestWindowMinutes,
        reminderIntervalMinutes: opts.settings.reminderIntervalMinutes,
      },
    }
  })

  app.put<{ Body: Body }>('/api/me/alert-subscription', { schema: { body } }, async (request, reply) => {
    if (!opts.settings) return notFound(reply, NOT_CONFIGURED)
    const b = request.body
    const badRule = b.rules.find((id) => !rules.some((r) => r.id === id))
    if (badRule !== undefined) return badRequest(reply, 'rules', `unknown alert rule '${badRule}'`)
    const badSeverity = b.severities.find((id) => !severities.some((s) => s.id === id))
    if (badSeverity !== undefined) return badRequest(reply, 'severities', `unknown severity '${badSeverity}'`)
    if (!choices.includes(b.channel))
      return badRequest(reply, 'channel', `channel must be one of ${choices.join(', ')}`)
    const quiet = b.quietHours ?? null
    if (quiet && quiet.start === quiet.end)
      return badRequest(reply, 'quietHours', 'quietHours start and end must differ (or send null for none)')
    const subscription: AlertSubscription = {
      rules: b.rules,
      severities: b.severities,
      channel: b.channel,
      quietHours: quiet,
    }
    const s = sessionOf(request)
    await store.write(s.memberId, subscription, { memberId: s.memberId, ip: request.ip }, now())
    reply.header('cache-control', 'no-store')
    return { subscription }
  })
}
