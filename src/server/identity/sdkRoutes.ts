import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { IdentityContext } from './context'
import { safeEqual } from './crypto'
import { errors } from './errors'
import { passwordProblem } from './guards'
import { passwordAuthenticate, resetPassword, resetStart } from './passwordFlows'
import { bootstrapJson, memberJson, organizationJson } from './responses'
import { installStytchErrors, sdkSessionToken, sendData } from './sdkAuth'
import * as schemas from './sdkSchemas'
import { fullSessionBody, liveSessionByToken, refreshSession, revokeSessionToken } from './sessions'
import { smsAuthenticate, smsSend } from './smsFlows'
import { declareRoutes } from '../auth/routeAuth'
import { noBody } from '../http/schemas'
import { sdkMemberRoutes } from '../members/sdkMemberRoutes'

const origin = (request: FastifyRequest) => `${request.protocol}://${request.host}`

/** The Stytch B2B SDK endpoints the app uses (reference §5-§8), registered under /sdk/v1. */
export async function sdkRoutes(app: FastifyInstance, opts: { ctx: IdentityContext }) {
  const { ctx } = opts
  // The SDK endpoints are how a session is made: public, each checks its own tokens.
  declareRoutes(app, { auth: 'public' })
  installStytchErrors(app)

  app.get<{ Params: { publicToken: string } }>('/projects/bootstrap/:publicToken', async (request, reply) => {
    if (!safeEqual(request.params.publicToken, ctx.settings.publicToken)) throw errors.publicTokenNotFound()
    return sendData(reply, bootstrapJson(ctx.settings, ctx.settings.productName))
  })

  // Telemetry is accepted and dropped (reference §7).
  app.post('/events', { schema: { body: noBody } }, async (_request, reply) =>
    reply.code(200).header('cache-control', 'no-store').send({}),
  )

  app.post<{ Body: schemas.PasswordAuthenticateRequest }>(
    '/b2b/passwords/authenticate',
    { schema: { body: schemas.passwordAuthenticateBody } },
    async (request, reply) => {
      sdkSessionToken(ctx, request)
      const b = request.body
      const body = await passwordAuthenticate(
        ctx,
        {
          organizationId: b.organization_id,
          email: b.email_address,
          password: b.password,
          sessionMinutes: b.session_duration_minutes ?? null,
        },
        request.ip,
      )
      return sendData(reply, body)
    },
  )

  app.post<{ Body: schemas.ResetStartRequest }>(
    '/b2b/passwords/email/reset/start',
    { schema: { body: schemas.resetStartBody } },
    async (request, reply) => {
      sdkSessionToken(ctx, request)
      const b = request.body
      await resetStart(
        ctx,
        {
          organizationId: b.organization_id,
          email: b.email_address,
          redirectUrl: b.reset_password_redirect_url ?? null,
          expirationMinutes: b.reset_password_expiration_minutes ?? null,
          codeChallenge: b.code_challenge ?? null,
        },
        origin(request),
        request.ip,
      )
      return sendData(reply, {})
    },
  )

  app.post<{ Body: schemas.ResetRequest }>(
    '/b2b/passwords/email/reset',
    { schema: { body: schemas.resetBody } },
    async (request, reply) => {
      sdkSessionToken(ctx, request)
      const b = request.body
      const body = await resetPassword(
        ctx,
        {
          token: b.password_reset_token,
          password: b.password,
          sessionMinutes: b.session_duration_minutes ?? null,
          codeVerifier: b.code_verifier ?? null,
        },
        request.ip,
      )
      return sendData(reply, body)
    },
  )

  app.post<{ Body: { password: string; email_address?: string } }>(
    '/b2b/passwords/strength_check',
    { schema: { body: schemas.strengthCheckBody } },
    async (request, reply) => {
      sdkSessionToken(ctx, request)
      const problem = passwordProblem(ctx.settings, request.body.password, request.body.email_address ?? '')
      return sendData(reply, {
        valid_password: problem === null,
        score: problem === null ? 3 : 0,
        breached_password: false,
        strength_policy: 'luds',
        breach_detection_on_create: false,
        luds_feedback: null,
        zxcvbn_feedback: { warning: problem ?? '', suggestions: problem ? [problem] : [] },
      })
    },
  )

  app.post<{ Body: schemas.SmsSendRequest }>(
    '/b2b/otps/sms/send',
    { schema: { body: schemas.smsSendBody } },
    async (request, reply) => {
      sdkSessionToken(ctx, request)
      const b = request.body
      const body = await smsSend(
        ctx,
        {
          organizationId: b.organization_id,
          memberId: b.member_id,
          intermediateToken: b.intermediate_session_token,
          phone: b.mfa_phone_number ?? null,
        },
        request.ip,
      )
      return sendData(reply, body)
    },
  )

  app.post<{ Body: schemas.SmsAuthenticateRequest }>(
    '/b2b/otps/sms/authenticate',
    { schema: { body: schemas.smsAuthenticateBody(ctx.settings.otp.digits) } },
    async (request, reply) => {
      sdkSessionToken(ctx, request)
      const b = request.body
      const body = await smsAuthenticate(
        ctx,
        {
          organizationId: b.organization_id,
          memberId: b.member_id,
          intermediateToken: b.intermediate_session_token,
          code: b.code,
          sessionMinutes: b.session_duration_minutes ?? null,
        },
        request.ip,
      )
      return sendData(reply, body)
    },
  )

  app.post<{ Body: { session_duration_minutes?: number } }>(
    '/b2b/sessions/authenticate',
    { schema: { body: schemas.sessionsAuthenticateBody } },
    async (request, reply) => {
      const token = sdkSessionToken(ctx, request)
      const issued = await refreshSession(ctx, token, request.body.session_duration_minutes ?? null)
      return sendData(reply, fullSessionBody(ctx, issued))
    },
  )

  app.post('/b2b/sessions/revoke', { schema: { body: noBody } }, async (request, reply) => {
    const session = await revokeSessionToken(ctx, sdkSessionToken(ctx, request))
    await ctx.audit('session.revoked', {
      memberId: session.memberId,
      ip: request.ip,
      detail: { sessionId: session.sessionId },
    })
    return sendData(reply, {})
  })

  app.get('/b2b/organizations/members/me', async (request, reply) => {
    const token = sdkSessionToken(ctx, request)
    const found = token ? await liveSessionByToken(ctx, token) : null
    if (!found) throw errors.noSession()
    return sendData(reply, {
      member_id: found.member.memberId,
      member: memberJson(found.member),
      organization: organizationJson(ctx.settings),
    })
  })

  app.get('/b2b/organizations/me', async (request, reply) => {
    const token = sdkSessionToken(ctx, request)
    if (!token || !(await liveSessionByToken(ctx, token))) throw errors.noSession()
    return sendData(reply, { organization: organizationJson(ctx.settings) })
  })

  // Organization/member administration of the SDK (members search, update, delete, reactivate …).
  await app.register(sdkMemberRoutes, { ctx })

  app.get<{ Params: { projectId: string } }>('/b2b/sessions/jwks/:projectId', async (request, reply) => {
    if (request.params.projectId !== ctx.settings.projectId) throw errors.notFound()
    return reply.header('cache-control', 'public, max-age=300').send(ctx.key.jwks)
  })
}
