import { SignJWT, jwtVerify, type JWTPayload } from 'jose'
import type { MachineScope, VerifiedMachine } from '../auth/sessionVerifier'
import type { MachineClient, MachineClientStore } from '../store/machineClientStore'
import type { IdentityContext } from './context'
import { newId, newToken, safeEqual, sha256 } from './crypto'
import { SESSION_CLAIM, jwtIssuer } from './sessionJwt'

/**
 * Machine clients (issue #32, Stytch B2B's M2M): a system the utility runs — the risk vendor's
 * scorer, the GIS team's nightly export — gets an access token by the client-credentials grant and
 * calls the data routes its scopes allow. The scopes, and the only ones a client can hold:
 */
export const MACHINE_SCOPES = ['data:read', 'data:write'] as const satisfies readonly MachineScope[]

export const isMachineScope = (s: string): s is MachineScope =>
  (MACHINE_SCOPES as readonly string[]).includes(s)

/** Client ids as Stytch writes them: `m2m-client-test-<uuid>`. */
const CLIENT_PREFIX = 'm2m-client-'

/** A refusal of the token endpoint, in OAuth 2.0's terms (RFC 6749 §5.2). */
export class MachineGrantError extends Error {
  constructor(
    readonly statusCode: 400 | 401 | 403,
    readonly oauthError:
      | 'invalid_request'
      | 'invalid_client'
      | 'invalid_scope'
      | 'unsupported_grant_type'
      | 'unauthorized_client',
    message: string,
    readonly parameter?: string,
  ) {
    super(message)
  }
}

/** A refusal of an administrator's request (unknown client, bad name or scopes, the cap). */
export class MachineClientError extends Error {
  constructor(
    readonly statusCode: 400 | 404 | 409,
    message: string,
    readonly parameter?: string,
  ) {
    super(message)
  }
}

/** The scopes of a comma- or space-separated list; unknown ones are an error naming them. */
export function parseScopes(text: string, parameter: string): MachineScope[] {
  const list = text.split(/[\s,]+/).filter(Boolean)
  if (list.length === 0)
    throw new MachineClientError(400, `give at least one scope (${MACHINE_SCOPES.join(', ')})`, parameter)
  const unknown = list.filter((s) => !isMachineScope(s))
  if (unknown.length > 0)
    throw new MachineClientError(
      400,
      `unknown scope ${unknown.map((s) => `'${s}'`).join(', ')}: the scopes are ${MACHINE_SCOPES.join(', ')}`,
      parameter,
    )
  return [...new Set(list as MachineScope[])]
}

function checkName(name: string): string {
  const trimmed = name.trim()
  if (trimmed.length === 0 || trimmed.length > 120 || [...trimmed].some((ch) => ch < ' ' || ch === '\u007f'))
    throw new MachineClientError(400, 'the name must be 1 to 120 printable characters', 'name')
  return trimmed
}

/** What an administrator sees of a client: never the secret or its hash. */
export function machineClientJson(c: MachineClient) {
  return {
    client_id: c.clientId,
    client_name: c.name,
    scopes: c.scopes,
    status: c.status,
    client_secret_last_four: c.secretLast4,
    created_at: new Date(c.createdAt).toISOString(),
    rotated_at: c.rotatedAt === null ? null : new Date(c.rotatedAt).toISOString(),
    revoked_at: c.revokedAt === null ? null : new Date(c.revokedAt).toISOString(),
    last_token_at: c.lastUsedAt === null ? null : new Date(c.lastUsedAt).toISOString(),
  }
}

export interface MachineClientAdmin {
  list(): Promise<MachineClient[]>
  /** Creates a client; the secret is answered once and only its hash is kept. */
  create(
    input: { name: string; scopes: readonly string[] | string },
    actorId: string | null,
  ): Promise<{ client: MachineClient; secret: string }>
  rotate(clientId: string, actorId: string | null): Promise<{ client: MachineClient; secret: string }>
  revoke(clientId: string, actorId: string | null): Promise<MachineClient>
}

/** What administration needs of the identity context (the users CLI builds it without one). */
export type MachineAdminContext = Pick<IdentityContext, 'settings' | 'now' | 'audit'>

/** Creation, rotation and revocation of the organization's clients, each audited. */
export function machineClientAdmin(
  ctx: MachineAdminContext,
  machines: MachineClientStore,
): MachineClientAdmin {
  const org = ctx.settings.organizationId
  const live = ctx.settings.publicToken.startsWith('public-token-live-')
  const mustGet = async (clientId: string) => {
    const c = await machines.byId(clientId)
    if (!c || c.organizationId !== org)
      throw new MachineClientError(404, `no machine client ${clientId}`, 'client_id')
    return c
  }
  return {
    async list() {
      return machines.list(org)
    },
    async create(input, actorId) {
      const name = checkName(input.name)
      const scopes =
        typeof input.scopes === 'string'
          ? parseScopes(input.scopes, 'scopes')
          : parseScopes(input.scopes.join(' '), 'scopes')
      const active = (await machines.list(org)).filter((c) => c.status === 'active').length
      if (active >= ctx.settings.m2m.maxClients)
        throw new MachineClientError(
          409,
          `the organization already has ${active} active machine clients (identity.m2m.maxClients); revoke one first`,
        )
      const secret = newToken(32)
      const client: MachineClient = {
        clientId: newId('m2m-client', live),
        organizationId: org,
        name,
        scopes,
        secretHash: sha256(secret),
        secretLast4: secret.slice(-4),
        status: 'active',
        createdAt: ctx.now(),
        createdBy: actorId,
        rotatedAt: null,
        revokedAt: null,
        lastUsedAt: null,
      }
      await machines.insert(client)
      await ctx.audit('m2m.client_created', {
        actorId,
        subject: client.clientId,
        detail: { name, scopes },
      })
      return { client, secret }
    },
    async rotate(clientId, actorId) {
      const before = await mustGet(clientId)
      if (before.status !== 'active')
        throw new MachineClientError(409, `machine client ${clientId} is revoked`, 'client_id')
      const secret = newToken(32)
      if (!(await machines.rotate(clientId, sha256(secret), secret.slice(-4), ctx.now())))
        throw new MachineClientError(409, `machine client ${clientId} is revoked`, 'client_id')
      await ctx.audit('m2m.secret_rotated', { actorId, subject: clientId })
      return { client: await mustGet(clientId), secret }
    },
    async revoke(clientId, actorId) {
      const before = await mustGet(clientId)
      if (before.status !== 'active') return before
      await machines.revoke(clientId, ctx.now())
      await ctx.audit('m2m.client_revoked', { actorId, subject: clientId })
      return mustGet(clientId)
    },
  }
}

export interface TokenRequest {
  grant_type?: unknown
  client_id?: unknown
  client_secret?: unknown
  scope?: unknown
}

export interface IssuedToken {
  access_token: string
  token_type: 'bearer'
  expires_in: number
  scope: string
}

const text = (v: unknown, parameter: string, max: number): string => {
  if (typeof v !== 'string' || v.length === 0)
    throw new MachineGrantError(400, 'invalid_request', `${parameter} is required (a string)`, parameter)
  if (v.length > max)
    throw new MachineGrantError(400, 'invalid_request', `${parameter} is too long`, parameter)
  return v
}

/**
 * The client-credentials grant: checks the client id and secret (constant time; an unknown client
 * costs the same hash), the requested scopes (a subset of the client's; none asked = all), and
 * signs a JWT with the identity provider's key. Every issue and every refusal is audited.
 */
export async function issueMachineToken(
  ctx: IdentityContext,
  machines: MachineClientStore,
  body: TokenRequest,
  ip: string,
): Promise<IssuedToken> {
  if (typeof body !== 'object' || body === null)
    throw new MachineGrantError(400, 'invalid_request', 'the body must be a JSON object')
  const grant = text(body.grant_type, 'grant_type', 64)
  if (grant !== 'client_credentials')
    throw new MachineGrantError(
      400,
      'unsupported_grant_type',
      `grant_type must be client_credentials (got '${grant}')`,
      'grant_type',
    )
  const clientId = text(body.client_id, 'client_id', 200)
  const secret = text(body.client_secret, 'client_secret', 200)
  const asked = body.scope === undefined ? null : text(body.scope, 'scope', 200)
  const client = await machines.byId(clientId)
  const hashOk = safeEqual(sha256(secret), client?.secretHash ?? sha256(`no client:${clientId}`))
  if (
    !client ||
    !hashOk ||
    client.organizationId !== ctx.settings.organizationId ||
    client.status !== 'active'
  ) {
    await ctx.audit('m2m.token_refused', {
      subject: clientId.slice(0, 200),
      ip,
      detail: { reason: 'invalid_client' },
    })
    throw new MachineGrantError(
      401,
      'invalid_client',
      'the client id or secret is wrong, or the client is revoked',
    )
  }
  let scopes = client.scopes.filter(isMachineScope)
  if (asked !== null) {
    const wanted = asked.split(' ').filter(Boolean)
    const missing = wanted.filter((s) => !scopes.includes(s as MachineScope))
    if (wanted.length === 0 || missing.length > 0) {
      await ctx.audit('m2m.token_refused', {
        subject: clientId,
        ip,
        detail: { reason: 'invalid_scope', scope: asked },
      })
      throw new MachineGrantError(
        400,
        'invalid_scope',
        `the client may not have ${missing.map((s) => `'${s}'`).join(', ') || 'an empty scope'} (its scopes: ${scopes.join(' ')})`,
        'scope',
      )
    }
    scopes = scopes.filter((s) => wanted.includes(s))
  }
  const now = ctx.now()
  const seconds = ctx.settings.m2m.tokenMinutes * 60
  const tokenId = newId('m2m-token')
  const projectId = ctx.settings.projectId
  const access = await new SignJWT({ scope: scopes.join(' '), client_name: client.name })
    .setProtectedHeader({ alg: 'RS256', kid: ctx.key.kid, typ: 'JWT' })
    .setSubject(client.clientId)
    .setAudience([projectId])
    .setIssuer(jwtIssuer(projectId))
    .setJti(tokenId)
    .setIssuedAt(Math.floor(now / 1000))
    .setNotBefore(Math.floor(now / 1000))
    .setExpirationTime(Math.floor(now / 1000) + seconds)
    .sign(ctx.key.privateKey)
  await machines.touch(client.clientId, now)
  await ctx.audit('m2m.token_issued', { subject: client.clientId, ip, detail: { scopes, tokenId } })
  return { access_token: access, token_type: 'bearer', expires_in: seconds, scope: scopes.join(' ') }
}

const isMachinePayload = (p: JWTPayload): boolean =>
  typeof p.sub === 'string' &&
  p.sub.startsWith(CLIENT_PREFIX) &&
  typeof p.scope === 'string' &&
  !(SESSION_CLAIM in p)

/**
 * Verifies a machine access token: signature (RS256), issuer, audience, time, and the client as
 * stored now — a revoked client's tokens are refused at once (every check reads its row, so this
 * holds across servers sharing PostgreSQL). Answers the token's scopes that the client still holds.
 */
export async function verifyMachineToken(
  ctx: IdentityContext,
  machines: MachineClientStore,
  token: string,
): Promise<VerifiedMachine | null> {
  let payload: JWTPayload
  try {
    ;({ payload } = await jwtVerify(token, ctx.jwtKeys, {
      algorithms: ['RS256'],
      issuer: jwtIssuer(ctx.settings.projectId),
      audience: ctx.settings.projectId,
      typ: 'JWT',
      currentDate: new Date(ctx.now()),
    }))
  } catch {
    return null
  }
  if (!isMachinePayload(payload)) return null
  const client = await machines.byId(payload.sub as string)
  if (!client || client.status !== 'active' || client.organizationId !== ctx.settings.organizationId)
    return null
  const scopes = (payload.scope as string)
    .split(' ')
    .filter((s): s is MachineScope => isMachineScope(s) && client.scopes.includes(s))
  return {
    clientId: client.clientId,
    organizationId: client.organizationId,
    name: client.name,
    scopes,
    tokenId: typeof payload.jti === 'string' ? payload.jti : '',
    expiresAt: new Date((payload.exp ?? 0) * 1000),
  }
}
