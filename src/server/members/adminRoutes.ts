import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sessionOf } from '../auth/routeAuth'
import { HttpError } from '../http/httpErrors'
import type { IdentityContext } from '../identity/context'
import { memberJson } from '../identity/responses'
import { AdminError } from './adminError'
import { memberActions } from './memberActions'
import * as schemas from './memberSchemas'
import type { Actor } from './permission'

const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`

/**
 * Member administration the pinned SDK has no endpoint for, on the data API (Bearer session; the
 * session plugin checks each route's declared permission, 401/403, before the handler): invitations with a set-password link, an administrator's
 * password reset by e-mail, and the audit log with filters. Each is checked against the RBAC
 * policy of config again by memberActions and audited. In hosted mode (no bundled
 * provider) they answer 409 not_supported.
 */
export async function adminRoutes(app: FastifyInstance, opts: { ctx: IdentityContext | null }) {
  const actions = opts.ctx ? memberActions(opts.ctx) : null

  function use(request: FastifyRequest) {
    if (!actions)
      throw new HttpError(
        409,
        'Members are managed at the hosted identity provider.',
        undefined,
        'not_supported',
      )
    const s = sessionOf(request)
    const actor: Actor = { memberId: s.memberId, roles: s.roles, ip: request.ip }
    return { actions, actor }
  }

  /** Runs an action; its refusals answer in the API's error shape (the app's error handler). */
  async function run<T>(work: () => T | Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (err) {
      if (err instanceof AdminError) throw new HttpError(err.statusCode, err.message, err.parameter, err.code)
      throw err
    }
  }

  app.post<{ Body: schemas.InviteBody }>(
    '/api/admin/members/invite',
    {
      config: { auth: { permission: 'members.create' } },
      schema: { querystring: schemas.noQuery, body: schemas.inviteBody },
    },
    async (request, reply) => {
      const { actions, actor } = use(request)
      const { member, emailSent } = await run(() => actions.invite(actor, request.body, origin(request)))
      reply.header('cache-control', 'no-store')
      return reply.code(201).send({ member: memberJson(member), email_sent: emailSent })
    },
  )

  app.post<{ Params: { memberId: string } }>(
    '/api/admin/members/:memberId/password-reset',
    {
      config: { auth: { permission: 'members.update' } },
      schema: { querystring: schemas.noQuery, params: schemas.memberParams, body: schemas.emptyBody },
    },
    async (request, reply) => {
      const { actions, actor } = use(request)
      const done = await run(() => actions.resetPassword(actor, request.params.memberId, origin(request)))
      reply.header('cache-control', 'no-store')
      return {
        member: memberJson(done.member),
        revoked_sessions: done.revokedSessions,
        email_sent: done.emailSent,
      }
    },
  )

  app.get<{ Querystring: schemas.AuditQuery }>(
    '/api/admin/audit',
    { config: { auth: { permission: 'audit.read' } }, schema: { querystring: schemas.auditQuery } },
    async (request, reply) => {
      const { actions, actor } = use(request)
      const q = request.query
      const from = q.from === undefined ? undefined : Date.parse(q.from)
      const to = q.to === undefined ? undefined : Date.parse(q.to)
      if (from !== undefined && to !== undefined && from >= to)
        throw new HttpError(400, 'from must be before to.', 'from')
      const page = await run(() =>
        actions.auditLog(actor, {
          actorId: q.actor,
          action: q.action,
          memberId: q.member,
          from,
          to,
          limit: q.limit,
          offset: (q.page - 1) * q.limit,
        }),
      )
      const emails = await actions.emails(page.entries.flatMap((e) => [e.actorId, e.memberId]))
      reply.header('cache-control', 'no-store')
      return {
        total: page.total,
        page: q.page,
        limit: q.limit,
        events: page.events,
        entries: page.entries.map((e) => ({
          id: e.id,
          at: new Date(e.at).toISOString(),
          event: e.event,
          actor_id: e.actorId ?? e.memberId,
          actor_email: emails[e.actorId ?? e.memberId ?? ''] ?? null,
          member_id: e.memberId,
          member_email: emails[e.memberId ?? ''] ?? null,
          subject: e.subject,
          ip: e.ip,
          detail: e.detail,
        })),
      }
    },
  )
}
