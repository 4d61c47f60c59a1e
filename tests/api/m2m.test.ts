import fs from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { SignJWT, importJWK, type JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { identitySettings } from '../../src/server/identity'
import { createIdentityContext } from '../../src/server/identity/context'
import { sha256 } from '../../src/server/identity/crypto'
import { createMember } from '../../src/server/identity/memberAdmin'
import { issueSession } from '../../src/server/identity/sessions'
import { jwtIssuer } from '../../src/server/identity/sessionJwt'
import { runUsersCli } from '../../src/server/identity/usersCli'
import type { AppStore } from '../../src/server/store/AppStore'
import { defaultCatalog } from '../../src/server/store/catalog'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { tempDir } from './testApp'

// Machine clients (issue #32 item 1, Stytch B2B M2M) through buildApp with the bundled provider, on
// the SQLite store and (project api-pg) on PostgreSQL: administration, the client-credentials
// grant, which routes a machine token opens, revocation at once (also on a second server over the
// same store), and the audit log.
const s = identitySettings
const TOKEN_URL = `/v1/public/${s.projectId}/oauth2/token`
const RECORDS = '/api/data/buildings/records?limit=1'

let app: FastifyInstance
let second: FastifyInstance
let store: AppStore
let dataDir: string
let adminToken = ''
let memberToken = ''

const call = (
  target: FastifyInstance,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  token: string | null,
  payload?: object,
) =>
  target.inject({
    method,
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(payload ? { 'content-type': 'application/json' } : {}),
    },
    payload: payload ? JSON.stringify(payload) : undefined,
  })

async function createClient(scopes: string[], name = 'Risk vendor scorer') {
  const res = await call(app, 'POST', '/api/admin/m2m-clients', adminToken, { name, scopes })
  expect(res.statusCode, res.body).toBe(201)
  const body = res.json<{ client: { client_id: string }; client_secret: string }>()
  return { clientId: body.client.client_id, secret: body.client_secret }
}

async function tokenFor(clientId: string, secret: string, scope?: string) {
  const res = await call(app, 'POST', TOKEN_URL, null, {
    client_id: clientId,
    client_secret: secret,
    grant_type: 'client_credentials',
    ...(scope === undefined ? {} : { scope }),
  })
  return res
}

async function accessToken(clientId: string, secret: string) {
  const res = await tokenFor(clientId, secret)
  expect(res.statusCode, res.body).toBe(200)
  return res.json<{ access_token: string }>().access_token
}

beforeAll(async () => {
  dataDir = tempDir('emberline-m2m-')
  store = await openDataDirStore(dataDir, defaultCatalog())
  const now = Date.now()
  const admin = await createMember(
    store.members,
    s,
    {
      email: 'admin@emberline.test',
      password: 'Ember-line-Admin-Passw0rd',
      roles: ['stytch_member', 'stytch_admin'],
    },
    now,
  )
  const member = await createMember(
    store.members,
    s,
    { email: 'field@emberline.test', password: 'Ember-line-Field-Passw0rd', roles: ['stytch_member'] },
    now,
  )
  const ctx = await createIdentityContext({ db: store, dataDir, settings: s, env: {}, print: () => {} })
  adminToken = (await issueSession(ctx, admin, [], 60)).sessionToken
  memberToken = (await issueSession(ctx, member, [], 60)).sessionToken
  app = await buildApp({ dataDir, demo: true, store })
  second = await buildApp({ dataDir, demo: true, store })
}, 60_000)

afterAll(async () => {
  await app.close()
  await second.close()
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('administration', () => {
  it('creates a client for an administrator only, shows its secret once and keeps only its hash', async () => {
    expect((await call(app, 'GET', '/api/admin/m2m-clients', null)).statusCode).toBe(401)
    expect((await call(app, 'GET', '/api/admin/m2m-clients', memberToken)).statusCode).toBe(403)
    const denied = await call(app, 'POST', '/api/admin/m2m-clients', memberToken, {
      name: 'x',
      scopes: ['data:read'],
    })
    expect(denied.statusCode).toBe(403)

    const { clientId, secret } = await createClient(['data:read'])
    expect(clientId).toMatch(/^m2m-client-test-/)
    expect(secret.length).toBeGreaterThanOrEqual(40)
    const stored = await store.machines.byId(clientId)
    expect(stored?.secretHash).toBe(sha256(secret))
    expect(JSON.stringify(stored)).not.toContain(secret)

    const list = await call(app, 'GET', '/api/admin/m2m-clients', adminToken)
    expect(list.statusCode).toBe(200)
    expect(list.body).not.toContain(secret)
    expect(list.body).not.toContain(sha256(secret))
    const listed = list.json<{ clients: { client_id: string; scopes: string[]; status: string }[] }>().clients
    expect(listed.find((c) => c.client_id === clientId)).toMatchObject({
      scopes: ['data:read'],
      status: 'active',
    })
  })

  it('refuses unknown scopes and bad names with a 400 naming the field', async () => {
    const bad = await call(app, 'POST', '/api/admin/m2m-clients', adminToken, {
      name: 'x',
      scopes: ['admin'],
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ parameter: 'scopes' })
    const blank = await call(app, 'POST', '/api/admin/m2m-clients', adminToken, {
      name: '   ',
      scopes: ['data:read'],
    })
    expect(blank.statusCode).toBe(400)
    expect(blank.json()).toMatchObject({ parameter: 'name' })
    const wrongType = await call(app, 'POST', '/api/admin/m2m-clients', adminToken, {
      name: 'x',
      scopes: { 'data:read': true },
    })
    expect(wrongType.statusCode).toBe(400)
    expect(wrongType.json()).toMatchObject({ parameter: 'scopes' })
  })
})

describe('the token endpoint (client credentials)', () => {
  it('issues a short-lived bearer JWT for the client’s scopes', async () => {
    const { clientId, secret } = await createClient(['data:read', 'data:write'])
    const res = await tokenFor(clientId, secret)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['cache-control']).toBe('no-store')
    const body = res.json<{ access_token: string; token_type: string; expires_in: number; scope: string }>()
    expect(body).toMatchObject({
      token_type: 'bearer',
      expires_in: s.m2m.tokenMinutes * 60,
      scope: 'data:read data:write',
    })
    const claims = JSON.parse(
      Buffer.from(body.access_token.split('.')[1] ?? '', 'base64url').toString(),
    ) as Record<string, unknown>
    expect(claims).toMatchObject({
      sub: clientId,
      scope: 'data:read data:write',
      iss: jwtIssuer(s.projectId),
    })
    expect(Number(claims.exp) - Number(claims.iat)).toBe(s.m2m.tokenMinutes * 60)
    // A narrower scope on request.
    const narrow = await tokenFor(clientId, secret, 'data:read')
    expect(narrow.json()).toMatchObject({ scope: 'data:read' })
  })

  it('refuses a wrong secret, an unknown client, another grant, a scope not granted and a wrong project', async () => {
    const { clientId, secret } = await createClient(['data:read'])
    const wrong = await tokenFor(clientId, `${secret}x`)
    expect(wrong.statusCode).toBe(401)
    expect(wrong.json()).toMatchObject({ error: 'invalid_client' })
    expect((await tokenFor('m2m-client-test-nobody', secret)).statusCode).toBe(401)
    const grant = await call(app, 'POST', TOKEN_URL, null, {
      client_id: clientId,
      client_secret: secret,
      grant_type: 'password',
    })
    expect(grant.statusCode).toBe(400)
    expect(grant.json()).toMatchObject({ error: 'unsupported_grant_type', parameter: 'grant_type' })
    const scope = await tokenFor(clientId, secret, 'data:write')
    expect(scope.statusCode).toBe(400)
    expect(scope.json()).toMatchObject({ error: 'invalid_scope', parameter: 'scope' })
    const missing = await call(app, 'POST', TOKEN_URL, null, {
      client_id: clientId,
      grant_type: 'client_credentials',
    })
    expect(missing.statusCode).toBe(400)
    expect(missing.json()).toMatchObject({ parameter: 'client_secret' })
    const wrongType = await call(app, 'POST', TOKEN_URL, null, {
      client_id: { id: clientId },
      client_secret: secret,
      grant_type: 'client_credentials',
    })
    expect(wrongType.statusCode).toBe(400)
    expect(wrongType.json()).toMatchObject({ parameter: 'client_id' })
    const project = await call(app, 'POST', '/v1/public/project-test-other/oauth2/token', null, {
      client_id: clientId,
      client_secret: secret,
      grant_type: 'client_credentials',
    })
    expect(project.statusCode).toBe(404)
  })
})

describe('what a machine token opens', () => {
  it('reads the data routes with data:read, and nothing of the admin, account or identity routes', async () => {
    const { clientId, secret } = await createClient(['data:read'])
    const token = await accessToken(clientId, secret)
    expect((await call(app, 'GET', RECORDS, token)).statusCode).toBe(200)
    expect((await call(app, 'GET', '/ogc/collections', token)).statusCode).toBe(200)
    const tile = await call(app, 'GET', '/api/tiles/buildings/mvt/7/26/51', token)
    expect([200, 204]).toContain(tile.statusCode)

    const refused: string[] = []
    for (const [method, url] of [
      ['GET', '/api/me'],
      ['GET', '/api/me/preferences'],
      ['GET', '/api/admin/audit'],
      ['GET', '/api/admin/m2m-clients'],
      ['POST', '/api/admin/members/invite'],
      ['GET', '/api/alerts'],
      ['GET', '/api/psps/event'],
    ] as const) {
      const res = await call(
        app,
        method,
        url,
        token,
        method === 'POST' ? { email: 'x@emberline.test' } : undefined,
      )
      if (res.statusCode !== 403) refused.push(`${method} ${url} → ${res.statusCode}`)
    }
    expect(refused).toEqual([])
    // Every route of the table that is not a declared data route refuses it too.
    const open = app.routeTable.filter(
      (r) =>
        r.method === 'GET' && /^\/api\/(me|admin|alerts|psps|planning|mitigation|briefing)\b/.test(r.url),
    )
    expect(open.length).toBeGreaterThan(10)
    for (const r of open) {
      const res = await call(app, 'GET', r.url.replace(/:(\w+)/g, 'x'), token)
      if (res.statusCode !== 403) refused.push(`GET ${r.url} → ${res.statusCode}`)
    }
    expect(refused).toEqual([])
    // Nor is it a session for the SDK's session endpoints.
    const sdk = await app.inject({
      method: 'POST',
      url: '/sdk/v1/b2b/sessions/authenticate',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ session_jwt: token }),
    })
    expect(sdk.statusCode).not.toBe(200)
  })

  it('is refused once expired, when forged, and when sent as the session cookie', async () => {
    const { clientId, secret } = await createClient(['data:read'])
    const key = await store.members.signingKey()
    if (!key) throw new Error('no signing key')
    const jwk = JSON.parse(key.privateJwk) as JWK
    const sign = (exp: number) =>
      importJWK(jwk, 'RS256').then((k) =>
        new SignJWT({ scope: 'data:read' })
          .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
          .setSubject(clientId)
          .setAudience([s.projectId])
          .setIssuer(jwtIssuer(s.projectId))
          .setIssuedAt(exp - 3600)
          .setExpirationTime(exp)
          .sign(k),
      )
    const nowSeconds = Math.floor(Date.now() / 1000)
    expect((await call(app, 'GET', RECORDS, await sign(nowSeconds + 600))).statusCode).toBe(200)
    expect((await call(app, 'GET', RECORDS, await sign(nowSeconds - 60))).statusCode).toBe(401)
    const good = await accessToken(clientId, secret)
    const [h, p] = good.split('.')
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(p ?? '', 'base64url').toString()), scope: 'data:read data:write' })).toString('base64url')}.${good.split('.')[2]}`
    expect((await call(app, 'GET', RECORDS, forged)).statusCode).toBe(401)
    const cookie = await app.inject({
      method: 'GET',
      url: '/api/tiles/buildings/mvt/7/26/51',
      headers: { cookie: `stytch_session_jwt=${good}; stytch_session=${good}` },
    })
    expect(cookie.statusCode).toBe(401)
  })

  it('is refused at once when its client is revoked, on this server and another over the same store', async () => {
    const { clientId, secret } = await createClient(['data:read'])
    const token = await accessToken(clientId, secret)
    expect((await call(second, 'GET', RECORDS, token)).statusCode).toBe(200)
    const revoked = await call(app, 'DELETE', `/api/admin/m2m-clients/${clientId}`, adminToken)
    expect(revoked.statusCode, revoked.body).toBe(200)
    expect(revoked.json()).toMatchObject({ client: { status: 'revoked' } })
    expect((await call(app, 'GET', RECORDS, token)).statusCode).toBe(401)
    expect((await call(second, 'GET', RECORDS, token)).statusCode).toBe(401)
    expect((await tokenFor(clientId, secret)).statusCode).toBe(401)
  })

  it('rotation replaces the secret: the old one gets no new token', async () => {
    const { clientId, secret } = await createClient(['data:read'])
    const rotated = await call(app, 'POST', `/api/admin/m2m-clients/${clientId}/rotate`, adminToken)
    expect(rotated.statusCode, rotated.body).toBe(200)
    const fresh = rotated.json<{ client_secret: string }>().client_secret
    expect(fresh).not.toBe(secret)
    expect((await tokenFor(clientId, secret)).statusCode).toBe(401)
    expect((await tokenFor(clientId, fresh)).statusCode).toBe(200)
  })
})

describe('the audit log', () => {
  it('records creation, rotation, each token, each request and revocation — never a secret', async () => {
    const { clientId, secret } = await createClient(['data:read'], 'Audited client')
    const token = await accessToken(clientId, secret)
    await call(app, 'GET', RECORDS, token)
    await tokenFor(clientId, 'wrong-secret')
    await call(app, 'POST', `/api/admin/m2m-clients/${clientId}/rotate`, adminToken)
    await call(app, 'DELETE', `/api/admin/m2m-clients/${clientId}`, adminToken)
    const log = (await store.members.auditLog(500)).filter((e) => e.subject === clientId)
    const events = log.map((e) => e.event)
    for (const e of [
      'm2m.client_created',
      'm2m.token_issued',
      'm2m.request',
      'm2m.token_refused',
      'm2m.secret_rotated',
      'm2m.client_revoked',
    ])
      expect(events, e).toContain(e)
    const use = log.find((e) => e.event === 'm2m.request')
    expect(use?.detail).toMatchObject({ method: 'GET', route: '/api/data/:dataset/records', status: 200 })
    expect(log.find((e) => e.event === 'm2m.client_created')?.actorId).toBeTruthy()
    expect(JSON.stringify(log)).not.toContain(secret)
  })
})

describe('npm run users -- m2m', () => {
  it('creates, lists, rotates and revokes clients from the shell', async () => {
    const lines: string[] = []
    const io = { db: store, print: (l: string) => lines.push(l) }
    expect(
      await runUsersCli(
        ['m2m', 'create', '--name', 'GIS nightly export', '--scopes', 'data:read,data:write'],
        io,
      ),
    ).toBe(0)
    const clientId = lines.find((l) => l.startsWith('client_id: '))?.slice(11) ?? ''
    const secret = lines.find((l) => l.startsWith('client_secret: '))?.slice(15) ?? ''
    expect(clientId).toMatch(/^m2m-client-test-/)
    expect((await tokenFor(clientId, secret)).statusCode).toBe(200)
    lines.length = 0
    expect(await runUsersCli(['m2m', 'list'], io)).toBe(0)
    expect(
      lines.some((l) => l.startsWith(clientId) && l.includes('data:read,data:write') && !l.includes(secret)),
    ).toBe(true)
    expect(await runUsersCli(['m2m', 'rotate', clientId], io)).toBe(0)
    expect((await tokenFor(clientId, secret)).statusCode).toBe(401)
    expect(await runUsersCli(['m2m', 'revoke', clientId], io)).toBe(0)
    expect((await store.machines.byId(clientId))?.status).toBe('revoked')
    lines.length = 0
    expect(await runUsersCli(['m2m', 'create', '--name', 'x', '--scopes', 'everything'], io)).toBe(1)
    expect(lines.join('\n')).toMatch(/unknown scope 'everything'/)
    expect(await runUsersCli(['m2m', 'create', '--scopes', 'data:read'], io)).toBe(2)
  })
})
