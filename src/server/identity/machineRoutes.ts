import type { FastifyInstance, FastifyReply } from 'fastify'
import type { MachineVerifier } from '../auth/sessionVerifier'
import { sessionOf } from '../auth/routeAuth'
import { HttpError } from '../http/httpErrors'
import type { IdentityContext } from './context'
import { looksLikeJwt } from './sessionJwt'
import {
  MachineClientError,
  MachineGrantError,
  issueMachineToken,
  machineClientAdmin,
  machineClientJson,
  verifyMachineToken,
  type TokenRequest,
} from './machineClients'

/** The bundled provider's machine-token check for the session plugin (and the audit of each use). */
export function machineVerifier(ctx: IdentityContext): MachineVerifier {
  return {
    async verify(credential) {
      if (!looksLikeJwt(credential) || credential.length > 8192) return null
      return verifyMachineToken(ctx, ctx.machines, credential)
    },
    async recordUse(machine, use) {
      await ctx.audit('m2m.request', {
        subject: machine.clientId,
        ip: use.ip,
        detail: { method: use.method, route: use.route, status: use.status, tokenId: machine.tokenId },
      })
    },
  }
}

const clientIdParams = {
  type: 'object',
  required: ['clientId'],
  properties: { clientId: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' } },
} as const
const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const
/** A request that acts on its path only (`{}` or nothing). */
const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const
const grantText = { type: 'string', maxLength: 200 } as const
/** The grant's fields as strings; which are missing or wrong is answered in OAuth's terms. */
const tokenBody = {
  type: 'object',
  additionalProperties: false,
  properties: { grant_type: grantText, client_id: grantText, client_secret: grantText, scope: grantText },
} as const
const createBody = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'scopes'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 120 },
    scopes: {
      type: 'array',
      minItems: 1,
      maxItems: 10,
      items: { type: 'string', minLength: 1, maxLength: 40 },
    },
  },
} as const

function adminError(err: unknown): never {
  if (err instanceof MachineClientError) throw new HttpError(err.statusCode, err.message, err.parameter)
  throw err
}

/**
 * Machine clients (issue #32 item 1): the Stytch M2M token endpoint, public
 * (`POST /v1/public/<project_id>/oauth2/token`, the client-credentials grant), and their
 * administration under /api/admin/m2m-clients (permission `m2m_clients.*`; creation and rotation
 * answer the secret once).
 */
export async function machineRoutes(app: FastifyInstance, opts: { ctx: IdentityContext }) {
  const { ctx } = opts
  const admin = machineClientAdmin(ctx, ctx.machines)

  // The token endpoint answers OAuth 2.0's error shape (RFC 6749 §5.2: `error`,
  // `error_description`), which M2M client libraries read, plus our `message` and `parameter`.
  const oauthError = (reply: FastifyReply, err: MachineGrantError) =>
    reply
      .code(err.statusCode)
      .header('cache-control', 'no-store')
      .send({
        error: err.oauthError,
        error_description: err.message,
        message: err.message,
        ...(err.parameter ? { parameter: err.parameter } : {}),
      })

  app.post<{ Params: { projectId: string }; Body: TokenRequest }>(
    '/v1/public/:projectId/oauth2/token',
    {
      config: { auth: 'public' },
      schema: {
        querystring: noQuery,
        body: tokenBody,
        params: {
          type: 'object',
          required: ['projectId'],
          properties: { projectId: { type: 'string', minLength: 1, maxLength: 200 } },
        },
      },
      bodyLimit: 16 * 1024,
    },
    async (request, reply) => {
      if (request.params.projectId !== ctx.settings.projectId)
        throw new HttpError(404, 'Unknown project.', 'project_id')
      try {
        const token = await issueMachineToken(ctx, ctx.machines, request.body ?? {}, request.ip)
        return await reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(token)
      } catch (err) {
        if (err instanceof MachineGrantError) return oauthError(reply, err)
        throw err
      }
    },
  )

  app.get(
    '/api/admin/m2m-clients',
    { config: { auth: { permission: 'm2m_clients.read' } }, schema: { querystring: noQuery } },
    async (_request, reply) => {
      const clients = await admin.list()
      return reply.header('cache-control', 'no-store').send({ clients: clients.map(machineClientJson) })
    },
  )

  app.post<{ Body: { name: string; scopes: string[] } }>(
    '/api/admin/m2m-clients',
    {
      config: { auth: { permission: 'm2m_clients.create' } },
      schema: { querystring: noQuery, body: createBody },
    },
    async (request, reply) => {
      const actor = sessionOf(request).memberId
      const { client, secret } = await admin.create(request.body, actor).catch(adminError)
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ client: machineClientJson(client), client_secret: secret })
    },
  )

  app.post<{ Params: { clientId: string } }>(
    '/api/admin/m2m-clients/:clientId/rotate',
    {
      config: { auth: { permission: 'm2m_clients.update' } },
      schema: { querystring: noQuery, params: clientIdParams, body: emptyBody },
      // A POST without a body (curl -X POST) means the same as `{}`.
      preValidation: async (request) => {
        request.body ??= {}
      },
    },
    async (request, reply) => {
      const actor = sessionOf(request).memberId
      const { client, secret } = await admin.rotate(request.params.clientId, actor).catch(adminError)
      return reply
        .header('cache-control', 'no-store')
        .send({ client: machineClientJson(client), client_secret: secret })
    },
  )

  app.delete<{ Params: { clientId: string } }>(
    '/api/admin/m2m-clients/:clientId',
    {
      config: { auth: { permission: 'm2m_clients.delete' } },
      schema: { querystring: noQuery, params: clientIdParams },
    },
    async (request, reply) => {
      const actor = sessionOf(request).memberId
      const client = await admin.revoke(request.params.clientId, actor).catch(adminError)
      return reply.header('cache-control', 'no-store').send({ client: machineClientJson(client) })
    },
  )
}
