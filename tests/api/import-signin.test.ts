import fs from 'node:fs'
import path from 'node:path'
import Database from 'better-sqlite3'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/server/app'
import { ensureFirstMember, identitySettings } from '../../src/server/identity'
import { ACCOUNTS_FILE, ACCOUNTS_MIGRATIONS_DIR } from '../../src/server/store/accountsDb'
import { defaultCatalog } from '../../src/server/store/catalog'
import { createIdentityStore } from '../../src/server/store/identityStore'
import { migrate } from '../../src/server/store/migrate'
import { openStore, STORE_FILE, type SqliteStore } from '../../src/server/store/sqliteStore'
import { tempDir } from './testApp'

// Sign-in must not fail while data is loading. A dataset import holds the feature store's write
// lock for its whole transaction (16 s for 700,000 buildings); sign-in, session checks and the
// audit log write to the accounts database instead, so they never wait on it.
const admin = { email: 'admin@emberline.test', password: 'Ember-line-Test-Passw0rd!', phone: '+15055550142' }
const s = identitySettings

let app: FastifyInstance
let store: SqliteStore
let dataDir: string

beforeAll(async () => {
  dataDir = tempDir('emberline-import-signin-')
  store = openStore(dataDir, defaultCatalog())
  const env = {
    EMBERLINE_ADMIN_EMAIL: admin.email,
    EMBERLINE_ADMIN_PASSWORD: admin.password,
    EMBERLINE_ADMIN_PHONE: admin.phone,
  }
  await ensureFirstMember(store.accounts, env, () => {}, { dataDir })
  app = await buildApp({ dataDir, demo: true, store })
})

afterAll(async () => {
  await app.close()
  store.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
})

async function sdk(url: string, payload: object) {
  const headers = {
    authorization: `Basic ${Buffer.from(`${s.publicToken}:${s.publicToken}`).toString('base64')}`,
    'content-type': 'application/json',
  }
  const res = await app.inject({ method: 'POST', url: `/sdk/v1${url}`, headers, payload })
  return { status: res.statusCode, data: (res.json() as { data?: Record<string, string> }).data ?? {} }
}

/** Password, then the SMS code from the outbox: the statuses of the three steps and the session. */
async function signIn(password = admin.password) {
  const org = s.organizationId
  const login = await sdk('/b2b/passwords/authenticate', {
    organization_id: org,
    email_address: admin.email,
    password,
  })
  const ist = login.data.intermediate_session_token ?? ''
  const member = login.data.member_id ?? ''
  const send = await sdk('/b2b/otps/sms/send', {
    organization_id: org,
    member_id: member,
    intermediate_session_token: ist,
  })
  const lines = fs
    .readFileSync(path.join(dataDir, 'outbox', 'sms.jsonl'), 'utf8')
    .trim()
    .split('\n')
  const code = (JSON.parse(lines.at(-1) ?? '{}') as { code: string }).code
  const done = await sdk('/b2b/otps/sms/authenticate', {
    organization_id: org,
    member_id: member,
    intermediate_session_token: ist,
    code,
  })
  return { statuses: [login.status, send.status, done.status], token: done.data.session_token ?? '' }
}

describe('while an import holds the feature store’s write lock', () => {
  it('sign-ins, wrong passwords, session checks and reads all answer at once', async () => {
    // What `npm run import` does for the length of its transaction: hold the write lock.
    const importer = new Database(path.join(dataDir, STORE_FILE))
    importer.exec('BEGIN IMMEDIATE')
    importer.prepare("UPDATE datasets SET feature_count = feature_count WHERE id = 'buildings'").run()
    try {
      const started = Date.now()
      const wrong = await sdk('/b2b/passwords/authenticate', {
        organization_id: s.organizationId,
        email_address: admin.email,
        password: 'not-the-password',
      })
      expect(wrong.status).toBe(401)
      for (let i = 0; i < 3; i++) {
        const signed = await signIn()
        expect(signed.statuses).toEqual([200, 200, 200])
        const records = await app.inject({
          url: '/api/data/buildings/records?limit=1',
          headers: { authorization: `Bearer ${signed.token}` },
        })
        expect(records.statusCode).toBe(200)
        const prefs = await app.inject({
          method: 'PUT',
          url: '/api/me/preferences',
          headers: { authorization: `Bearer ${signed.token}` },
          payload: {},
        })
        expect(prefs.statusCode).toBe(200)
      }
      // Nothing waited for the lock (SQLite's busy wait would have taken seconds per write).
      expect(Date.now() - started).toBeLessThan(4000)
    } finally {
      importer.exec('ROLLBACK')
      importer.close()
    }
  })
})

describe('a store from before the accounts database', () => {
  it('keeps its members, moved out of the feature store at the first open', async () => {
    const dir = tempDir('emberline-legacy-')
    try {
      // The old layout: member tables inside emberline.sqlite.
      const old = new Database(path.join(dir, STORE_FILE))
      migrate(old, ACCOUNTS_MIGRATIONS_DIR)
      await ensureFirstMember(
        old,
        {
          EMBERLINE_ADMIN_EMAIL: 'old@emberline.test',
          EMBERLINE_ADMIN_PASSWORD: admin.password,
          EMBERLINE_ADMIN_PHONE: admin.phone,
        },
        () => {},
        { dataDir: dir },
      )
      old.close()
      const reopened = openStore(dir, defaultCatalog())
      expect(await createIdentityStore(reopened.accounts).memberByEmail('old@emberline.test')).toBeTruthy()
      const leftover = reopened.db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'identity_%'")
        .all()
      expect(leftover).toEqual([])
      reopened.close()
      expect(fs.existsSync(path.join(dir, ACCOUNTS_FILE))).toBe(true)
      // A second open neither loses nor duplicates them.
      const again = openStore(dir, defaultCatalog())
      expect(await createIdentityStore(again.accounts).listMembers()).toHaveLength(1)
      again.close()
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
