import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { RbacPolicy } from '../identity/settings'
import { declareRoutes, sessionOf } from './routeAuth'
import sessionPlugin from './sessionPlugin'
import type { SessionVerifier } from './sessionVerifier'

const rbac: RbacPolicy = {
  resources: [
    { resource_id: 'members', description: 'Members', actions: ['read', 'update'] },
    { resource_id: 'data', description: 'Data', actions: ['read'] },
  ],
  roles: [
    { role_id: 'member', description: 'Everyone', permissions: [{ resource_id: 'data', actions: ['read'] }] },
    { role_id: 'admin', description: 'Admins', permissions: [{ resource_id: 'members', actions: ['*'] }] },
  ],
}

const roles: Record<string, string[]> = { 'token-ann': ['member'], 'token-root': ['member', 'admin'] }
const verifier: SessionVerifier = {
  async verify(credential) {
    const r = roles[credential]
    if (!r) return null
    return { memberId: credential, sessionId: 's', organizationId: 'o', roles: r, expiresAt: new Date(0) }
  },
}
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

let app: FastifyInstance

beforeEach(async () => {
  app = Fastify()
  await app.register(sessionPlugin, { verifier, cookieName: 'sid', rbac })
  app.get('/undeclared', async (request) => ({ member: sessionOf(request).memberId }))
  app.get('/session', { config: { auth: 'session' } }, async () => ({ ok: true }))
  app.get('/open', { config: { auth: 'public' } }, async (request) => ({ session: request.session }))
  app.get('/admins', { config: { auth: { permission: 'members.update' } } }, async () => ({ ok: true }))
  app.get('/readers', { config: { auth: { permission: 'data.read' } } }, async () => ({ ok: true }))
  await app.register(async (child) => {
    declareRoutes(child, { sessionCookie: true })
    child.get('/tiles', async () => ({ ok: true }))
  })
  await app.register(async (child) => {
    declareRoutes(child, { auth: 'public' })
    child.get('/sdk', async () => ({ ok: true }))
    child.get('/sdk/me', { config: { auth: 'session' } }, async () => ({ ok: true }))
  })
  await app.ready()
})

afterEach(async () => {
  await app.close()
})

describe('the session plugin', () => {
  it('needs a session on a route that declares nothing (401 without one)', async () => {
    const none = await app.inject({ url: '/undeclared' })
    expect(none.statusCode).toBe(401)
    expect(none.json()).toMatchObject({ error: 'unauthorized' })
    expect((await app.inject({ url: '/undeclared', headers: bearer('forged') })).statusCode).toBe(401)
    const ok = await app.inject({ url: '/undeclared', headers: bearer('token-ann') })
    expect(ok.json()).toEqual({ member: 'token-ann' })
    expect((await app.inject({ url: '/session' })).statusCode).toBe(401)
  })

  it('opens a route only when it declares auth: public', async () => {
    const res = await app.inject({ url: '/open' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ session: null })
    expect((await app.inject({ url: '/sdk' })).statusCode).toBe(200)
    // A route's own declaration wins over its context's.
    expect((await app.inject({ url: '/sdk/me' })).statusCode).toBe(401)
  })

  it('refuses 403 a session without the declared permission, and 401 no session at all', async () => {
    expect((await app.inject({ url: '/admins' })).statusCode).toBe(401)
    const member = await app.inject({ url: '/admins', headers: bearer('token-ann') })
    expect(member.statusCode).toBe(403)
    expect(member.json()).toEqual({ error: 'forbidden', message: 'this needs the members.update permission' })
    // The '*' wildcard grants every action of the resource.
    expect((await app.inject({ url: '/admins', headers: bearer('token-root') })).statusCode).toBe(200)
    expect((await app.inject({ url: '/readers', headers: bearer('token-ann') })).statusCode).toBe(200)
  })

  it('parses one Bearer form and takes the session cookie only where a route accepts it', async () => {
    for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'token-ann']) {
      const res = await app.inject({ url: '/undeclared', headers: { authorization } })
      expect(res.statusCode, authorization).toBe(401)
    }
    expect(
      (await app.inject({ url: '/undeclared', headers: { authorization: 'bearer  token-ann ' } })).statusCode,
    ).toBe(200)
    const cookie = { cookie: 'other=1; sid=token-ann' }
    expect((await app.inject({ url: '/undeclared', headers: cookie })).statusCode).toBe(401)
    expect((await app.inject({ url: '/tiles', headers: cookie })).statusCode).toBe(200)
  })

  it('refuses at start a permission the RBAC policy does not define', async () => {
    const other = Fastify()
    await other.register(sessionPlugin, { verifier, cookieName: 'sid', rbac })
    expect(() =>
      other.get('/x', { config: { auth: { permission: 'members.destroy' } } }, async () => ({ ok: true })),
    ).toThrow(/members\.destroy is not an action/)
    await other.close()
  })
})
