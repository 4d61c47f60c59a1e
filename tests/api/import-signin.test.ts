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
import { sdkInject, signInBySms } from '../support/smsSignIn'
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

const sdk = (url: string, payload: object) => sdkInject(app)(url, payload)

/** Password, then the SMS code from the outbox: the statuses of the three steps and the session. */
const signIn = (password = admin.password) =>
  signInBySms(sdkInject(app), { email: admin.email, password, dataDir })

describe('while an import holds the feature store’s write lock', () => {
  it('sign-ins, wrong passwords, session checks and reads all answer at once', async () => {
    // What `npm run import` does for the length of its transaction: hold the write lock.
    const importer = new Database(path.join(dataDir, STORE_FILE))
    importer.exec('BEGIN IMMEDIATE')
    importer.prepare("UPDATE datasets SET feature_count = feature_count WHERE id = 'buildings'").run()
    try {
      // SQLite's busy wait lasts busy_timeout (5 s) before it gives up: a request that waited for
      // the lock takes at least that long, however fast or loaded the machine is.
      const slowest: number[] = []
      const timed = async <T>(call: () => Promise<T>): Promise<T> => {
        const t0 = performance.now()
        const out = await call()
        slowest.push(performance.now() - t0)
        return out
      }
      const wrong = await timed(() =>
        sdk('/b2b/passwords/authenticate', {
          organization_id: s.organizationId,
          email_address: admin.email,
          password: 'not-the-password',
        }),
      )
      expect(wrong.status).toBe(401)
      for (let i = 0; i < 3; i++) {
        const signed = await signIn()
        slowest.push(signed.ms) // its three steps together
        expect(signed.statuses).toEqual([200, 200, 200])
        const records = await timed(() =>
          app.inject({
            url: '/api/data/buildings/records?limit=1',
            headers: { authorization: `Bearer ${signed.token}` },
          }),
        )
        expect(records.statusCode).toBe(200)
        const prefs = await timed(() =>
          app.inject({
            method: 'PUT',
            url: '/api/me/preferences',
            headers: { authorization: `Bearer ${signed.token}` },
            payload: {},
          }),
        )
        expect(prefs.statusCode).toBe(200)
      }
      // Nothing waited for the lock.
      expect(Math.max(...slowest)).toBeLessThan(4000)
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
      // The accounts' migration records went with them: the store's own migrations of the same
      // numbers ran (150: the fire consequence runs' tables, which 200 then changes).
      const fireTables = reopened.db
        .prepare(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'fire_run%' ORDER BY name",
        )
        .pluck()
        .all()
      expect(fireTables).toEqual(['fire_run_batches', 'fire_runs'])
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
