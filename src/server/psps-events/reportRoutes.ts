import type { FastifyInstance } from 'fastify'
import { notFound } from '../http/httpErrors'
import type { PspsEventsConfig } from './pspsEventsConfig'
import { memberEmails } from './memberEmails'
import { reportCsv, reportXlsx } from './reportFiles'
import { buildReport, notificationsFrom, type PspsReport } from './reportRows'

export interface ReportRoutesOptions {
  settings: PspsEventsConfig | null
  clock: () => number
}

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1, maximum: 2 ** 31 - 1, description: 'event id' } },
} as const
/** Notifications read for one report at most. */
const MAX_NOTIFICATIONS = 10_000

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * The post-event report of a PSPS event, three outputs of one row builder (reportRows.ts):
 * GET /api/psps/events/<id>/report (JSON: columns, rows, totals — the printable page),
 * …/report.csv and …/report.xlsx (downloads). Columns and titles: operations.yaml `pspsReport`.
 */
export async function reportRoutes(app: FastifyInstance, opts: ReportRoutesOptions): Promise<void> {
  const store = app.store.pspsEvents
  const config = { auth: { permission: 'psps_events.read' } } as const
  const schema = { params: idParams }

  async function report(id: number) {
    const settings = opts.settings
    if (!settings) return null
    const event = await store.get(id)
    if (!event) return null
    const now = opts.clock()
    const from = notificationsFrom(event, settings.report.notificationLookbackHours ?? 72)
    const sent = await store.deliveries(from, now + 1, MAX_NOTIFICATIONS)
    const email = await memberEmails(app.store, event)
    const built = buildReport(event, settings.report.columns, {
      notifications: sent.map((n) => n.at),
      now,
      email,
    })
    return { event, report: built, email }
  }

  const missing = (id: number) => (opts.settings ? `no PSPS event ${id}` : 'PSPS events are not configured')
  const jsonOf = (r: PspsReport) => ({
    columns: r.columns,
    rows: r.rows.map((row) => ({
      circuit: row.circuit,
      period: row.period,
      values: Object.fromEntries(
        r.columns.map((c) => {
          const v = row.values[c.field] ?? null
          return [c.field, c.kind === 'date' && typeof v === 'number' ? new Date(v).toISOString() : v]
        }),
      ),
    })),
    totals: r.totals,
  })

  app.get<{ Params: { id: number } }>(
    '/api/psps/events/:id/report',
    { schema, config },
    async (request, reply) => {
      const found = await report(request.params.id)
      if (!found) return notFound(reply, missing(request.params.id))
      reply.header('cache-control', 'no-store')
      const { event } = found
      return {
        event: {
          id: event.id,
          name: event.name,
          phase: event.phase,
          createdAt: new Date(event.createdAt).toISOString(),
        },
        generatedAt: new Date(opts.clock()).toISOString(),
        ...jsonOf(found.report),
      }
    },
  )

  app.get<{ Params: { id: number } }>(
    '/api/psps/events/:id/report.csv',
    { schema, config },
    async (request, reply) => {
      const found = await report(request.params.id)
      if (!found) return notFound(reply, missing(request.params.id))
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="psps-event-${found.event.id}-report.csv"`)
        .send(reportCsv(found.report))
    },
  )

  app.get<{ Params: { id: number } }>(
    '/api/psps/events/:id/report.xlsx',
    { schema, config },
    async (request, reply) => {
      const found = await report(request.params.id)
      if (!found) return notFound(reply, missing(request.params.id))
      const { event, email } = found
      const body = await reportXlsx(found.report, {
        name: event.name,
        phases: event.phases.map((p) => ({ phase: p.phase, at: p.at, by: email(p.by) ?? p.by })),
      })
      return reply
        .header('cache-control', 'no-store')
        .header('content-type', XLSX)
        .header('content-disposition', `attachment; filename="psps-event-${event.id}-report.xlsx"`)
        .send(body)
    },
  )
}
