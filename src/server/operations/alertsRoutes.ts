import { sessionOf } from '../auth/routeAuth'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { type AlertsSettings, appConfig, operationsConfig, resolveColor } from '../../shared/config'
import { zonedInstant } from '../../shared/time/zonedInstant'
import { AlertsEngine, type Alert } from '../alerts'
import { badRequest, notFound } from '../http/httpErrors'
import { noBody } from '../http/schemas'
import type { AlertsStore } from '../store/alertsStore'
import { parseAlertsQuery } from './alertsQuery'

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The one alerts engine of the app: GET /api/alerts, alert delivery and feed updates evaluate
     * through it (`evaluate()`), and `onEvaluated` listeners see every evaluation.
     */
    alertsEngine: AlertsEngine
  }
}

export interface AlertsRoutesOptions {
  /** Defaults to operationsConfig.alerts. */
  settings?: AlertsSettings
  /** The engine's "now": defaults to the demo reference noon in demo mode, else the real clock. */
  now?: () => number
  /** Defaults to the app's acknowledgement store (`app.store.acks`). */
  acks?: AlertsStore
  /** Clock of acknowledgements (defaults to Date.now). */
  ackClock?: () => number
}

interface IdParams {
  id: string
}

/** GET /api/alerts: `rule` and `severity` (repeatable or comma lists), `acknowledged`; nothing else. */
const alertsQuery = {
  type: 'object',
  propertyNames: { enum: ['rule', 'severity', 'acknowledged'] },
  properties: {
    rule: { type: 'array', items: { type: 'string', maxLength: 500 }, description: 'rule ids' },
    severity: { type: 'array', items: { type: 'string', maxLength: 500 }, description: 'severity ids' },
    acknowledged: { type: 'array', items: { type: 'string', maxLength: 10 }, description: 'true or false' },
  },
} as const

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 300 } },
} as const

/** Noon local time of the demo reference date — the demo data's "now" (as the map clock). */
function engineClock(demo: boolean): () => number {
  if (!demo) return Date.now
  const fixed = zonedInstant(appConfig.demo.referenceDate, 12, appConfig.demo.timeZone)
  return () => fixed
}

/** The engine over the app's store: config rules, the demo reference noon in demo mode. */
export function createAlertsEngine(
  app: FastifyInstance,
  opts: Pick<AlertsRoutesOptions, 'settings' | 'now'> = {},
): AlertsEngine {
  const settings = opts.settings ?? operationsConfig.alerts
  return new AlertsEngine(app.store, settings, opts.now ?? engineClock(app.appOptions.demo))
}

/**
 * GET /api/alerts, GET /api/alerts/:id/geometry, POST and DELETE /api/alerts/:id/ack: the
 * asset-exposure alerts of config/operations.yaml with the member's acknowledgements. Every route
 * needs a session (the app's verifier, as the data API); acknowledgements are audited.
 */
export async function alertsRoutes(app: FastifyInstance, opts: AlertsRoutesOptions): Promise<void> {
  const settings = opts.settings ?? operationsConfig.alerts
  const shared = opts.settings === undefined && opts.now === undefined && app.hasDecorator('alertsEngine')
  const engine = shared ? app.alertsEngine : createAlertsEngine(app, opts)
  const acks = opts.acks ?? app.store.acks
  const ackClock = opts.ackClock ?? Date.now
  const severities = settings.severities.map((s) => ({
    id: s.id,
    label: s.label,
    color: resolveColor(s.color),
  }))
  const ruleIds = settings.rules.map((r) => r.id)

  const memberOf = (request: FastifyRequest): string => sessionOf(request).memberId
  const find = async (id: string): Promise<Alert | undefined> =>
    (await engine.evaluate()).alerts.find((a) => a.id === id)
  const unknownAlert = (reply: FastifyReply, id: string) => notFound(reply, `no current alert '${id}'`)

  app.get('/api/alerts', { schema: { querystring: alertsQuery } }, async (request, reply) => {
    const parsed = parseAlertsQuery(
      request.query as Record<string, unknown>,
      ruleIds,
      severities.map((s) => s.id),
    )
    if (!parsed.ok) return badRequest(reply, parsed.parameter, parsed.message)
    const { rules, severities: wanted, acknowledged } = parsed.query
    const evaluation = await engine.evaluate()
    const mine = await acks.acknowledgements(memberOf(request))
    const alerts = evaluation.alerts
      .filter((a) => (!rules || rules.has(a.ruleId)) && (!wanted || wanted.has(a.severity)))
      .map((a) => {
        const at = mine.get(a.id)
        return {
          ...a,
          acknowledged: at !== undefined,
          acknowledgedAt: at === undefined ? null : new Date(at).toISOString(),
        }
      })
      .filter((a) => acknowledged === null || a.acknowledged === acknowledged)
    return {
      alerts,
      evaluatedAt: evaluation.evaluatedAt,
      rules: settings.rules.map((r) => ({
        id: r.id,
        title: r.title,
        severity: r.severity,
        count: evaluation.counts.get(r.id) ?? 0,
      })),
      severities,
    }
  })

  app.get<{ Params: IdParams }>(
    '/api/alerts/:id/geometry',
    { schema: { params: idParams } },
    async (request, reply) => {
      const alert = await find(request.params.id)
      return alert ? engine.geometry(alert) : unknownAlert(reply, request.params.id)
    },
  )

  /** Acknowledges (POST) or withdraws the acknowledgement (DELETE) for the calling member. */
  const setAck =
    (acknowledged: boolean) => async (request: FastifyRequest<{ Params: IdParams }>, reply: FastifyReply) => {
      const alert = await find(request.params.id)
      if (!alert) return unknownAlert(reply, request.params.id)
      const actor = { memberId: memberOf(request), ip: request.ip, detail: { ruleId: alert.ruleId } }
      if (!acknowledged) {
        await acks.unacknowledge(alert.id, actor, ackClock())
        return { id: alert.id, acknowledged: false, acknowledgedAt: null }
      }
      const at = await acks.acknowledge(alert.id, actor, ackClock())
      return { id: alert.id, acknowledged: true, acknowledgedAt: new Date(at).toISOString() }
    }
  app.post<{ Params: IdParams }>(
    '/api/alerts/:id/ack',
    { schema: { params: idParams, body: noBody } },
    setAck(true),
  )
  app.delete<{ Params: IdParams }>('/api/alerts/:id/ack', { schema: { params: idParams } }, setAck(false))
}
