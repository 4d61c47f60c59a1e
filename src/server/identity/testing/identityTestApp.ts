import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import Fastify, { type FastifyInstance } from 'fastify'
import { exportJWK, generateKeyPair } from 'jose'
import { ACCOUNTS_MIGRATIONS_DIR } from '../../store/accountsDb'
import type { IdentityStorage } from '../../store/identityStorage'
import { createIdentityStore } from '../../store/identityStore'
import { createIdentityTokenStore } from '../../store/identityTokenStore'
import { createMachineClientStore } from '../../store/machineClientStore'
import { migrate } from '../../store/migrate'
import { pgAccountStores } from '../../store/pg/accounts'
import { testPg } from '../../store/pg/testing/pgTestDatabase'
import { testStoreKind } from '../../store/testing/dataDirStore'
import { createBundledVerifier } from '../bundledVerifier'
import { createIdentityContext, type IdentityContext } from '../context'
import { identityPlugin } from '../identityPlugin'
import { createMember } from '../memberAdmin'
import { identitySettings, type IdentitySettings } from '../settings'

export const TEST_PASSWORD = 'correct horse battery staple'
export const TEST_PHONE = '+15055550199'

export interface IdentityTestApp {
  app: FastifyInstance
  ctx: IdentityContext
  /** Every row of an accounts table, on whichever store the suite runs. */
  rows(table: string): Promise<unknown[]>
  dataDir: string
  clock: { now: number }
  memberId: string
  email: string
  /** `Authorization` header value as the SDK sends it. */
  basic(secret?: string): string
  outbox(channel: 'sms' | 'email'): Record<string, string>[]
  /** The outbox once it holds at least `count` messages (reset e-mails are sent without waiting). */
  waitForOutbox(channel: 'sms' | 'email', count: number): Promise<Record<string, string>[]>
  close(): Promise<void>
}

let sharedKey: Promise<{ kid: string; priv: string; pub: string }> | null = null
/** One RSA key per test process: generating 2048-bit keys per test is slow on a busy machine. */
function testKey() {
  sharedKey ??= (async () => {
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true })
    const kid = 'jwk-test-shared'
    return {
      kid,
      priv: JSON.stringify({ ...(await exportJWK(privateKey)), kid, alg: 'RS256' }),
      pub: JSON.stringify({ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' }),
    }
  })()
  return sharedKey
}

/**
 * The accounts stores of a test: an in-memory SQLite database, or (EMBERLINE_TEST_STORE=postgres,
 * as the API suite's PostgreSQL half runs) a fresh database on the test cluster.
 */
async function accountsStore(): Promise<{
  stores: IdentityStorage
  rows(table: string): Promise<unknown[]>
  close(): Promise<void>
}> {
  if (testStoreKind() === 'postgres') {
    const pg = await testPg()
    return {
      stores: pgAccountStores(pg.db),
      rows: (table) => pg.db.query(`SELECT * FROM ${table}`),
      close: () => pg.drop(),
    }
  }
  const db = new Database(':memory:')
  migrate(db, ACCOUNTS_MIGRATIONS_DIR)
  return {
    stores: {
      members: createIdentityStore(db),
      tokens: createIdentityTokenStore(db),
      machines: createMachineClientStore(db),
    },
    rows: async (table) => db.prepare(`SELECT * FROM ${table}`).all(),
    close: async () => {
      db.close()
    },
  }
}

/** A Fastify app with only the identity plugin, an in-memory store, a temp outbox and a settable clock. */
export async function identityTestApp(
  opts: { settings?: IdentitySettings; env?: Record<string, string> } = {},
) {
  const settings = opts.settings ?? identitySettings
  const accounts = await accountsStore()
  const key = await testKey()
  await accounts.stores.members.insertSigningKey(key.kid, key.priv, key.pub, 0)
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-identity-'))
  const clock = { now: Date.parse('2025-03-05T12:00:00Z') }
  const ctx = await createIdentityContext({
    db: accounts.stores,
    dataDir,
    settings,
    env: opts.env ?? {},
    now: () => clock.now,
    print: () => {},
  })
  const email = 'ops@emberline.test'
  const member = await createMember(
    ctx.members,
    settings,
    { email, name: 'Ops', phone: TEST_PHONE, password: TEST_PASSWORD, roles: ['stytch_member'] },
    clock.now,
  )
  const app = Fastify({ logger: false })
  await app.register(identityPlugin, {
    identity: { ctx, verifier: createBundledVerifier(ctx), mode: 'bundled' },
  })
  await app.ready()
  const harness: IdentityTestApp = {
    app,
    ctx,
    rows: accounts.rows,
    dataDir,
    clock,
    memberId: member.memberId,
    email,
    basic: (secret = settings.publicToken) =>
      `Basic ${Buffer.from(`${settings.publicToken}:${secret}`).toString('base64')}`,
    outbox(channel) {
      const file = path.join(dataDir, 'outbox', `${channel}.jsonl`)
      if (!fs.existsSync(file)) return []
      return fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, string>)
    },
    async waitForOutbox(channel, count) {
      for (let i = 0; i < 200; i++) {
        const messages = this.outbox(channel)
        if (messages.length >= count) return messages
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
      throw new Error(`the ${channel} outbox did not reach ${count} messages`)
    },
    async close() {
      await app.close()
      await accounts.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return harness
}

/** Drives password → SMS send → SMS authenticate through the routes; returns the full-session data. */
export async function signInThroughRoutes(t: IdentityTestApp, password = TEST_PASSWORD) {
  const org = t.ctx.settings.organizationId
  const headers = { authorization: t.basic(), 'content-type': 'application/json' }
  const login = await t.app.inject({
    method: 'POST',
    url: '/sdk/v1/b2b/passwords/authenticate',
    headers,
    payload: { organization_id: org, email_address: t.email, password, session_duration_minutes: 1440 },
  })
  const ist = (login.json() as { data: { intermediate_session_token: string } }).data
    .intermediate_session_token
  await t.app.inject({
    method: 'POST',
    url: '/sdk/v1/b2b/otps/sms/send',
    headers,
    payload: { organization_id: org, member_id: t.memberId, intermediate_session_token: ist },
  })
  const code = t.outbox('sms').at(-1)?.code ?? ''
  const auth = await t.app.inject({
    method: 'POST',
    url: '/sdk/v1/b2b/otps/sms/authenticate',
    headers,
    payload: {
      organization_id: org,
      member_id: t.memberId,
      code,
      session_duration_minutes: 1440,
      intermediate_session_token: ist,
    },
  })
  return (
    auth.json() as {
      data: {
        session_token: string
        session_jwt: string
        member_session: { member_session_id: string; expires_at: string; started_at: string }
      }
    }
  ).data
}
