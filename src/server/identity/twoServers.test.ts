import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { exportJWK, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAccountsDb } from '../store/accountsDb'
import { createIdentityStore, type IdentityStore } from '../store/identityStore'
import { createIdentityTokenStore } from '../store/identityTokenStore'
import { createMachineClientStore } from '../store/machineClientStore'
import { createBundledVerifier } from './bundledVerifier'
import { createIdentityContext, type IdentityContext } from './context'
import { createMember } from './memberAdmin'
import { passwordAuthenticate } from './passwordFlows'
import { issueSession, revokeSessionToken, verifyCredential } from './sessions'
import { identitySettings } from './settings'

// Two servers on one accounts database, each with its own connection: what one counts or revokes,
// the other sees at once (issue #19: throttles and lockouts count across servers; no session cache
// outlives a revoke). On SQLite the servers share the file; the PostgreSQL store does the same.

const settings = { ...identitySettings, throttle: { ...identitySettings.throttle, maxFailures: 4 } }
const PASSWORD = 'correct horse battery staple'
let dir: string
const closers: (() => void)[] = []

/** A server's identity over its own connection; `stamp: false` drops the store's change stamp. */
async function server(opts: { stamp?: boolean } = {}): Promise<IdentityContext> {
  const db = openAccountsDb(dir)
  closers.push(() => db.close())
  const { changeStamp, ...rest } = createIdentityStore(db)
  const members: IdentityStore = opts.stamp === false ? rest : { ...rest, changeStamp }
  return createIdentityContext({
    db: { members, tokens: createIdentityTokenStore(db), machines: createMachineClientStore(db) },
    dataDir: dir,
    settings,
    env: {},
    print: () => {},
  })
}

const login = (ctx: IdentityContext, password: string) =>
  passwordAuthenticate(
    ctx,
    { organizationId: settings.organizationId, email: 'ops@emberline.test', password, sessionMinutes: null },
    '10.0.0.7',
  )

const errorOf = async (work: Promise<unknown>) => {
  try {
    await work
    return null
  } catch (err) {
    return err as { statusCode?: number; errorType?: string }
  }
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-two-servers-'))
  const first = await server()
  await createMember(
    first.members,
    settings,
    { email: 'ops@emberline.test', phone: '+15055550199', password: PASSWORD, roles: ['stytch_member'] },
    Date.now(),
  )
})

afterAll(() => {
  for (const close of closers.splice(0)) close()
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('two servers on one accounts database', () => {
  it('count wrong passwords through either toward one lockout', async () => {
    const a = await server()
    const b = await server()
    for (const ctx of [a, b, a])
      expect(await errorOf(login(ctx, 'wrong password'))).toMatchObject({ statusCode: 401 })
    // The 4th failure (maxFailures) locks the e-mail for this address on both servers.
    expect(await errorOf(login(b, 'wrong password'))).toMatchObject({ statusCode: 401 })
    expect(await errorOf(login(a, PASSWORD))).toMatchObject({ statusCode: 429 })
    expect(await errorOf(login(b, PASSWORD))).toMatchObject({ statusCode: 429 })
  })

  it.each([
    ['with the SQLite change stamp (cache emptied by any commit)', true],
    ['without a change stamp (no cache at all, as on PostgreSQL)', false],
  ])('refuse a session revoked through the other at once, %s', async (_, stamp) => {
    const a = await server({ stamp })
    const b = await server({ stamp })
    const member = await a.members.memberByEmail('ops@emberline.test')
    if (!member) throw new Error('no member')
    const issued = await issueSession(a, member, [], 60)
    const verifier = createBundledVerifier(a)
    expect(await verifier.verify(issued.sessionToken)).toMatchObject({ memberId: member.memberId })
    expect(await verifier.verify(issued.sessionToken)).toMatchObject({ memberId: member.memberId })
    await revokeSessionToken(b, issued.sessionToken)
    expect(await verifier.verify(issued.sessionToken)).toBeNull()
    expect(await verifier.verify(issued.sessionJwt)).toBeNull()
  })
})

describe('two servers starting together on an empty accounts database', () => {
  it('accept each other’s session JWTs, though each stored and signs with its own key', async () => {
    const a = await server()
    // B stores its key after A read the keys at its start, and signs with it (the newest).
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
    const kid = 'jwk-server-b'
    await a.members.insertSigningKey(
      kid,
      JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'RS256' }),
      JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }),
      Date.now() + 1,
    )
    const b = await server()
    expect(b.key.kid).toBe(kid)
    expect(a.key.jwks.keys.map((k) => k.kid)).not.toContain(kid)
    const member = await b.members.memberByEmail('ops@emberline.test')
    if (!member) throw new Error('no member')
    const issued = await issueSession(b, member, [], 60)
    expect(await verifyCredential(a, issued.sessionJwt)).toMatchObject({ memberId: member.memberId })
    // A now publishes B's key too.
    expect(a.key.jwks.keys.map((k) => k.kid)).toContain(kid)
  })
})
