import fs from 'node:fs'
import type { FastifyInstance } from 'fastify'
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { ensureFirstMember, identitySettings } from '../../src/server/identity'
import { defaultCatalog } from '../../src/server/store/catalog'
import type { AppStore } from '../../src/server/store/AppStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'
import { sdkInject, signInBySms } from '../support/smsSignIn'
import { tempDir } from './testApp'

// The data server's auth hook with the identity plugin's verifier (no verifier passed to buildApp).
const admin = { email: 'admin@emberline.test', password: 'Ember-line-Test-Passw0rd!', phone: '+15055550142' }
const records = '/api/data/buildings/records?limit=1'
const tile = '/api/tiles/buildings/mvt/5/6/12'
const s = identitySettings

let app: FastifyInstance
let store: AppStore
let dataDir: string

beforeAll(async () => {
  dataDir = tempDir('emberline-identity-api-')
  store = await openDataDirStore(dataDir, defaultCatalog())
  await ensureFirstMember(
    store,
    {
      EMBERLINE_ADMIN_EMAIL: admin.email,
      EMBERLINE_ADMIN_PASSWORD: admin.password,
      EMBERLINE_ADMIN_PHONE: admin.phone,
    },
    () => {},
    { dataDir },
  )
  app = await buildApp({ dataDir, demo: true, store })
})

afterAll(async () => {
  await app.close()
  await store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

async function signIn(): Promise<{ token: string; jwt: string }> {
  const { token, jwt, failure } = await signInBySms(sdkInject(app), { ...admin, dataDir })
  if (failure) throw new Error(`sign-in failed: ${failure}`)
  return { token, jwt }
}

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers })
const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

describe('data API session checks through the bundled verifier', () => {
  it('answers 401 JSON without a token', async () => {
    for (const url of [records, tile]) {
      const res = await get(url)
      expect(res.statusCode).toBe(401)
      expect(res.json()).toMatchObject({ error: 'unauthorized' })
    }
  })

  it('accepts the opaque token and the JWT, and the session cookie on tiles only', async () => {
    const { token, jwt } = await signIn()
    expect((await get(records, bearer(token))).statusCode).toBe(200)
    expect((await get(records, bearer(jwt))).statusCode).toBe(200)
    const cookie = { cookie: `theme=dark; stytch_session=${encodeURIComponent(token)}` }
    expect([200, 204]).toContain((await get(tile, cookie)).statusCode)
    expect((await get(records, cookie)).statusCode).toBe(401)
  })

  it('refuses a revoked session at once, token and JWT alike', async () => {
    const { token, jwt } = await signIn()
    const revoke = await app.inject({
      method: 'POST',
      url: '/sdk/v1/b2b/sessions/revoke',
      headers: { authorization: `Basic ${Buffer.from(`${s.publicToken}:${token}`).toString('base64')}` },
    })
    expect(revoke.statusCode).toBe(200)
    expect((await get(records, bearer(token))).statusCode).toBe(401)
    expect((await get(records, bearer(jwt))).statusCode).toBe(401)
    expect((await get(tile, { cookie: `stytch_session=${token}` })).statusCode).toBe(401)
  })

  it('refuses forged, unsigned and tampered JWTs', async () => {
    const { jwt } = await signIn()
    const header = decodeProtectedHeader(jwt) as { alg: 'RS256'; kid: string }
    const { privateKey } = await generateKeyPair('RS256')
    const forged = await new SignJWT(decodeJwt(jwt)).setProtectedHeader(header).sign(privateKey)
    const [h, p, sig] = jwt.split('.') as [string, string, string]
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${p}.`
    const claims = { ...decodeJwt(jwt), sub: 'member-test-someone-else' }
    const tampered = `${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${sig}`
    for (const bad of [forged, none, tampered, 'definitely-not-a-jwt']) {
      expect((await get(records, bearer(bad))).statusCode).toBe(401)
    }
    expect((await get(records, bearer(jwt))).statusCode).toBe(200)
  })
})
