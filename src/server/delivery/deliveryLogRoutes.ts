import type { FastifyInstance } from 'fastify'

const querystring = {
  type: 'object',
  additionalProperties: false,
  properties: { limit: { type: 'integer', minimum: 1, maximum: 1000, default: 200 } },
} as const

/**
 * GET /api/admin/alert-deliveries?limit=N: the delivery log, newest first — every message queued,
 * sent, failed (with the reason and the next retry), given up, held by quiet hours or dropped
 * (cleared, acknowledged, unsubscribed, no address). Only for members whose roles grant
 * `members.read` (spec §6 semantics, config/app.yaml rbac; the session plugin checks it); others get 403.
 */
export async function deliveryLogRoutes(app: FastifyInstance): Promise<void> {
  const store = app.store.delivery
  const identity = app.store.members
  app.get<{ Querystring: { limit: number } }>(
    '/api/admin/alert-deliveries',
    { schema: { querystring }, config: { auth: { permission: 'members.read' } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store')
      const log = await store.recentLog(request.query.limit)
      const emails = new Map<string, string | null>()
      for (const id of new Set(log.map((e) => e.memberId)))
        emails.set(id, (await identity.memberById(id))?.email ?? null)
      return {
        entries: log.map((e) => ({
          ...e,
          at: new Date(e.at).toISOString(),
          memberEmail: emails.get(e.memberId) ?? null,
        })),
      }
    },
  )
}
