import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/server/app'
import type { SessionVerifier } from '../../src/server/auth/sessionVerifier'
import { seedDemo } from '../../src/demo/seedDemo'
import { defaultCatalog, type Catalog } from '../../src/server/store/catalog'
import type { AppStore } from '../../src/server/store/AppStore'
import { openDataDirStore } from '../../src/server/store/testing/dataDirStore'

export const TEST_TOKEN = 'test-session-token'
export const AUTH = { authorization: `Bearer ${TEST_TOKEN}` }

/** Accepts exactly TEST_TOKEN. */
export const testVerifier: SessionVerifier = {
  async verify(credential) {
    if (credential !== TEST_TOKEN) return null
    return {
      memberId: 'member-test',
      sessionId: 'session-test',
      organizationId: 'organization-test',
      roles: ['stytch_member'],
      expiresAt: new Date(Date.now() + 3_600_000),
    }
  },
}

export function tempDir(prefix = 'emberline-api-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix))
}

export interface TestApp {
  app: FastifyInstance
  store: AppStore
  dataDir: string
  close(): Promise<void>
}

/** The app over a store in a temp DATA_DIR; close() stops the app and removes the directory. */
export function testApp(app: FastifyInstance, store: AppStore, dataDir: string): TestApp {
  return {
    app,
    store,
    dataDir,
    async close() {
      await app.close()
      await store.close()
      fs.rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** A seeded store (small building count) in a temp DATA_DIR and the app over it. */
export async function seededApp(
  options: { buildings?: number; demo?: boolean; catalog?: Catalog } = {},
): Promise<TestApp> {
  const dataDir = tempDir()
  const store = await openDataDirStore(dataDir, options.catalog ?? defaultCatalog())
  await seedDemo(store, { buildings: options.buildings ?? 2000, steps: [] })
  const app = await buildApp({ dataDir, demo: options.demo ?? true, store, verifier: testVerifier })
  return testApp(app, store, dataDir)
}

export function filtersQuery(...filters: unknown[]): string {
  return filters
    .map((f) => `filters=${encodeURIComponent(typeof f === 'string' ? f : JSON.stringify(f))}`)
    .join('&')
}

/**
 * The app as `npm start` builds it: a seeded demo store, the bundled identity provider's own
 * session check (no test verifier) and a stand-in built web app (index.html, one asset).
 */
export async function appAsStarted(buildings: number): Promise<TestApp> {
  const dataDir = tempDir('emberline-started-')
  const staticDir = path.join(dataDir, 'dist')
  fs.mkdirSync(path.join(staticDir, 'assets'), { recursive: true })
  fs.writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>Emberline</title>')
  fs.writeFileSync(path.join(staticDir, 'assets', 'app.js'), 'console.log(1)')
  const store = await openDataDirStore(dataDir, defaultCatalog())
  await seedDemo(store, { buildings, steps: [] })
  const app = await buildApp({ dataDir, demo: true, store, staticDir })
  await app.ready()
  return testApp(app, store, dataDir)
}
