import type { FastifyInstance } from 'fastify'
import { sessionOf } from '../auth/routeAuth'
import { HttpError } from '../http/httpErrors'
import { noBody } from '../http/schemas'
import type { IdentityContext } from './context'
import { hashPassword, newId, verifyPassword } from './crypto'
import { memberKey, passwordProblem, reserveAttempt } from './guards'
import { permissionsOf } from './rbac'
import { acceptEmptyJson } from './sdkAuth'

const badRequest = (parameter: string, message: string) => new HttpError(400, message, parameter)

const passwordBody = {
  type: 'object',
  required: ['old', 'new'],
  additionalProperties: false,
  properties: {
    old: { type: 'string', minLength: 1, maxLength: 256 },
    new: { type: 'string', minLength: 1, maxLength: 256 },
  },
} as const

/**
 * The signed-in member's own account for the Settings page: GET /api/me, POST /api/me/password
 * and POST /api/me/sessions/revoke-all. Every route needs a session (the session plugin checks it;
 * errors answer in the app's one error shape).
 */
export async function meRoutes(app: FastifyInstance, opts: { ctx: IdentityContext | null }) {
  const { ctx } = opts

  acceptEmptyJson(app)

  app.get('/api/me', async (request, reply) => {
    const s = sessionOf(request)
    reply.header('cache-control', 'no-store')
    const member = ctx ? await ctx.members.memberById(s.memberId) : null
    const record = ctx ? await ctx.members.sessionById(s.sessionId) : null
    return {
      member: {
        member_id: s.memberId,
        email_address: member?.email ?? null,
        name: member?.name ?? null,
        phone: member?.phone ?? null,
        status: member?.status ?? 'active',
      },
      organization_id: s.organizationId,
      roles: s.roles,
      permissions: ctx ? permissionsOf(ctx.settings.rbac, s.roles) : {},
      session: {
        member_session_id: s.sessionId,
        started_at: record ? new Date(record.startedAt).toISOString() : null,
        expires_at: s.expiresAt.toISOString(),
        authentication_factors: record?.factors ?? [],
      },
    }
  })

  app.post<{ Body: { old: string; new: string } }>(
    '/api/me/password',
    { schema: { body: passwordBody } },
    async (request) => {
      const s = sessionOf(request)
      const member = ctx ? await ctx.members.memberById(s.memberId) : null
      if (!ctx || !member?.passwordHash) {
        throw new HttpError(
          409,
          'Passwords are managed by the identity provider.',
          undefined,
          'not_supported',
        )
      }
      // The lock check and the reservation are one atomic step, across servers; only failures count.
      const attempt = await reserveAttempt(
        ctx,
        memberKey(member.memberId),
        request.ip,
        'password.change_locked',
      )
      if (!(await verifyPassword(request.body.old, member.passwordHash))) {
        await attempt.failed()
        await ctx.audit('password.change_failed', { memberId: member.memberId, ip: request.ip })
        throw badRequest('old', 'The current password is not correct.')
      }
      await attempt.succeeded()
      const problem = passwordProblem(ctx.settings, request.body.new, member.email)
      if (problem) throw badRequest('new', problem)
      if (await verifyPassword(request.body.new, member.passwordHash))
        throw badRequest('new', 'The new password must be different from the current one.')
      const now = ctx.now()
      await ctx.members.updateMember(
        member.memberId,
        { passwordHash: await hashPassword(request.body.new), passwordId: newId('member-password') },
        now,
      )
      // Other sessions end; the one that changed the password stays signed in.
      const revoked = await ctx.members.revokeMemberSessions(member.memberId, now, s.sessionId)
      await ctx.audit('password.changed', {
        memberId: member.memberId,
        ip: request.ip,
        detail: { revokedSessions: revoked },
      })
      return { ok: true, revoked_sessions: revoked }
    },
  )

  app.post('/api/me/sessions/revoke-all', { schema: { body: noBody } }, async (request) => {
    const s = sessionOf(request)
    const revoked = ctx ? await ctx.members.revokeMemberSessions(s.memberId, ctx.now()) : 0
    await ctx?.audit('session.revoked_all', { memberId: s.memberId, ip: request.ip, detail: { revoked } })
    return { ok: true, revoked_sessions: revoked }
  })
}
