import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import type { SessionVerifier, VerifiedSession } from '../auth/sessionVerifier'
import type { IdentityContext } from './context'
import { hashPassword, newId, verifyPassword } from './crypto'
import {
  checkAttemptAllowed,
  clearAttempts,
  countAttempt,
  memberKey,
  passwordProblem,
  recordFailure,
} from './guards'
import { permissionsOf } from './rbac'
import { StytchError } from './errors'
import { acceptEmptyJson } from './sdkAuth'

class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message))
  }
}

const unauthorized = () =>
  new ApiError(401, { error: 'unauthorized', message: 'A valid session is required.' })
const badRequest = (parameter: string, message: string) =>
  new ApiError(400, { error: 'bad_request', parameter, message })

function bearer(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')
  return match?.[1] ?? null
}

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
 * and POST /api/me/sessions/revoke-all. Every route needs `Authorization: Bearer <session>`.
 */
export async function meRoutes(
  app: FastifyInstance,
  opts: { ctx: IdentityContext | null; verifier: SessionVerifier },
) {
  const { ctx, verifier } = opts

  acceptEmptyJson(app)
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) return reply.code(error.statusCode).send(error.body)
    if (error instanceof StytchError && error.statusCode === 429) {
      return reply.code(429).send({ error: 'too_many_requests', message: error.message })
    }
    if ('validation' in error && error.validation) {
      const first = error.validation[0]
      const parameter =
        (first?.params as { missingProperty?: string } | undefined)?.missingProperty ??
        (first?.instancePath.replace(/^\//, '') || 'body')
      return reply.code(400).send({ error: 'bad_request', parameter, message: error.message })
    }
    if (error.statusCode && error.statusCode < 500) {
      return reply
        .code(error.statusCode)
        .send({ error: 'bad_request', parameter: 'body', message: error.message })
    }
    request.log.error({ err: error }, 'account route failed')
    return reply.code(500).send({ error: 'internal', message: 'The request failed.' })
  })

  async function session(request: FastifyRequest): Promise<VerifiedSession> {
    const token = bearer(request)
    const verified = token ? await verifier.verify(token) : null
    if (!verified) throw unauthorized()
    return verified
  }

  app.get('/api/me', async (request, reply) => {
    const s = await session(request)
    reply.header('cache-control', 'no-store')
    const member = ctx?.members.memberById(s.memberId) ?? null
    const record = ctx?.members.sessionById(s.sessionId) ?? null
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
      const s = await session(request)
      const member = ctx?.members.memberById(s.memberId)
      if (!ctx || !member?.passwordHash) {
        throw new ApiError(409, {
          error: 'not_supported',
          message: 'Passwords are managed by the identity provider.',
        })
      }
      checkAttemptAllowed(ctx, memberKey(member.memberId), request.ip, 'password.change_locked')
      countAttempt(ctx, memberKey(member.memberId), request.ip)
      if (!(await verifyPassword(request.body.old, member.passwordHash))) {
        recordFailure(ctx, null, request.ip)
        ctx.audit('password.change_failed', { memberId: member.memberId, ip: request.ip })
        throw badRequest('old', 'The current password is not correct.')
      }
      clearAttempts(ctx, memberKey(member.memberId), request.ip)
      const problem = passwordProblem(ctx.settings, request.body.new, member.email)
      if (problem) throw badRequest('new', problem)
      if (await verifyPassword(request.body.new, member.passwordHash))
        throw badRequest('new', 'The new password must be different from the current one.')
      const now = ctx.now()
      ctx.members.updateMember(
        member.memberId,
        { passwordHash: await hashPassword(request.body.new), passwordId: newId('member-password') },
        now,
      )
      // Other sessions end; the one that changed the password stays signed in.
      const revoked = ctx.members.revokeMemberSessions(member.memberId, now, s.sessionId)
      ctx.audit('password.changed', {
        memberId: member.memberId,
        ip: request.ip,
        detail: { revokedSessions: revoked },
      })
      return { ok: true, revoked_sessions: revoked }
    },
  )

  app.post('/api/me/sessions/revoke-all', async (request) => {
    const s = await session(request)
    const revoked = ctx ? ctx.members.revokeMemberSessions(s.memberId, ctx.now()) : 0
    ctx?.audit('session.revoked_all', { memberId: s.memberId, ip: request.ip, detail: { revoked } })
    return { ok: true, revoked_sessions: revoked }
  })
}
