import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { IdentityContext } from '../identity/context'
import { StytchError, errors } from '../identity/errors'
import { memberJson, organizationJson } from '../identity/responses'
import { sdkSessionToken, sendData } from '../identity/sdkAuth'
import { liveSessionByToken } from '../identity/sessions'
import type { MemberRecord } from '../store/identityStore'
import { AdminError } from './adminError'
import { memberActions } from './memberActions'
import type { Actor } from './permission'
import { memberSearchFromStytch, type StytchSearchBody } from './stytchSearch'
import * as schemas from './memberSchemas'

/** The Stytch error an administration refusal becomes on the SDK's endpoints. */
function stytchError(err: AdminError): StytchError {
  const type = {
    bad_request: 'invalid_request',
    unauthorized: 'unauthorized_credentials',
    forbidden: 'unauthorized_action',
    not_found: 'member_not_found',
    conflict: 'action_not_allowed',
  }[err.code]
  return new StytchError(
    err.statusCode,
    type,
    err.message,
    err.parameter ? { parameter: err.parameter } : undefined,
  )
}

/**
 * The B2B organization/member endpoints of the pinned SDK (@stytch/vanilla-js 6.3.0:
 * `organization.members.search|update|delete|reactivate|deletePassword|deleteMFAPhoneNumber`,
 * `session.revokeForMember`), served by the bundled provider under /sdk/v1. Like every SDK call they
 * carry the session token as the Basic secret; each is checked against the RBAC policy of config
 * (memberActions) and audited. Registered inside sdkRoutes, so errors answer in Stytch's shape.
 */
export async function sdkMemberRoutes(app: FastifyInstance, opts: { ctx: IdentityContext }) {
  const { ctx } = opts
  const actions = memberActions(ctx)

  /** The signed-in caller (401 unauthorized_credentials without a live session). */
  async function actorOf(request: FastifyRequest): Promise<Actor> {
    const token = sdkSessionToken(ctx, request)
    const found = token ? await liveSessionByToken(ctx, token) : null
    if (!found) throw errors.noSession()
    return { memberId: found.member.memberId, roles: found.member.roles, ip: request.ip }
  }

  /** Runs an action, turning its refusals into Stytch errors. */
  async function run<T>(work: () => T | Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (err) {
      if (err instanceof AdminError) throw stytchError(err)
      throw err
    }
  }

  const memberBody = (member: MemberRecord) => ({
    member_id: member.memberId,
    member: memberJson(member),
    organization: organizationJson(ctx.settings),
  })

  app.post<{ Body: StytchSearchBody }>(
    '/b2b/organizations/me/members/search',
    { schema: { querystring: schemas.noQuery, body: schemas.searchBody } },
    async (request, reply) => {
      const actor = await actorOf(request)
      const result = await run(async () => {
        const search = memberSearchFromStytch(request.body)
        const found = await actions.searchMembers(actor, search)
        const next = search.offset + found.members.length
        return {
          members: found.members.map(memberJson),
          results_metadata: { total: found.total, next_cursor: next < found.total ? String(next) : null },
          organizations: { [ctx.settings.organizationId]: organizationJson(ctx.settings) },
        }
      })
      return sendData(reply, result)
    },
  )

  app.put<{ Params: { memberId: string }; Body: schemas.UpdateBody }>(
    '/b2b/organizations/members/:memberId',
    { schema: { querystring: schemas.noQuery, params: schemas.memberParams, body: schemas.updateBody } },
    async (request, reply) => {
      const actor = await actorOf(request)
      const b = request.body
      if (b.member_id !== undefined && b.member_id !== request.params.memberId)
        throw errors.badRequest('member_id', 'member_id must match the member of the path.')
      const member = await run(() =>
        actions.update(actor, request.params.memberId, {
          name: b.name,
          roles: b.roles,
          phone: b.mfa_phone_number,
        }),
      )
      return sendData(reply, memberBody(member))
    },
  )

  app.delete<{ Params: { memberId: string } }>(
    '/b2b/organizations/members/:memberId',
    { schema: { querystring: schemas.noQuery, params: schemas.memberParams } },
    async (request, reply) => {
      const actor = await actorOf(request)
      await run(() => actions.disable(actor, request.params.memberId))
      return sendData(reply, {})
    },
  )

  app.put<{ Params: { memberId: string } }>(
    '/b2b/organizations/members/:memberId/reactivate',
    { schema: { querystring: schemas.noQuery, params: schemas.memberParams, body: schemas.emptyBody } },
    async (request, reply) => {
      const actor = await actorOf(request)
      const member = await run(() => actions.enable(actor, request.params.memberId))
      return sendData(reply, memberBody(member))
    },
  )

  app.delete<{ Params: { passwordId: string } }>(
    '/b2b/organizations/members/passwords/:passwordId',
    { schema: { querystring: schemas.noQuery, params: schemas.passwordParams } },
    async (request, reply) => {
      const actor = await actorOf(request)
      const member = await run(() => actions.deletePassword(actor, request.params.passwordId))
      return sendData(reply, memberBody(member))
    },
  )

  app.delete<{ Params: { memberId: string } }>(
    '/b2b/organizations/members/mfa_phone_numbers/:memberId',
    { schema: { querystring: schemas.noQuery, params: schemas.memberParams } },
    async (request, reply) => {
      const actor = await actorOf(request)
      const member = await run(() => actions.deletePhone(actor, request.params.memberId))
      return sendData(reply, memberBody(member))
    },
  )

  app.post<{ Params: { memberId: string } }>(
    '/b2b/sessions/revoke/:memberId',
    { schema: { querystring: schemas.noQuery, params: schemas.memberParams, body: schemas.emptyBody } },
    async (request, reply) => {
      const actor = await actorOf(request)
      await run(() => actions.revokeSessions(actor, request.params.memberId))
      return sendData(reply, {})
    },
  )
}
