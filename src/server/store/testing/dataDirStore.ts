import fs from 'node:fs'
import path from 'node:path'
import type { AppStore } from '../AppStore'
import type { Catalog } from '../catalog'
import { openPgStore } from '../pg/pgStore'
import { createTestDatabase } from '../pg/testing/pgTestDatabase'
import { openStore } from '../sqliteStore'

/**
 * Which store the API suite runs on: `sqlite` (default) or `postgres` — the vitest project
 * `api-pg` runs the same suite with EMBERLINE_TEST_STORE=postgres.
 */
export const TEST_STORE_ENV = 'EMBERLINE_TEST_STORE'

export type TestStoreKind = 'sqlite' | 'postgres'

export function testStoreKind(): TestStoreKind {
  const v = process.env[TEST_STORE_ENV] ?? 'sqlite'
  if (v !== 'sqlite' && v !== 'postgres')
    throw new Error(`${TEST_STORE_ENV}=${v}: expected sqlite or postgres`)
  return v
}

/** The file in a test's data directory naming its PostgreSQL database. */
const URL_FILE = 'test-database-url'

/**
 * The PostgreSQL database of a test's data directory: made on the test cluster at the first call,
 * the same one afterwards (a second server or a CLI of the same test reaches it).
 */
export async function dataDirDatabaseUrl(dataDir: string): Promise<string> {
  const file = path.join(dataDir, URL_FILE)
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim()
  const url = await createTestDatabase()
  fs.mkdirSync(dataDir, { recursive: true })
  fs.writeFileSync(file, url)
  return url
}

/**
 * The store of a test's data directory, on the store the suite runs on: SQLite files under
 * `dataDir`, or that directory's PostgreSQL database. Every open of one directory reaches the
 * same data, as two servers or a server and a CLI on one deployment do.
 */
export async function openDataDirStore(
  dataDir: string,
  catalog: Catalog,
  kind: TestStoreKind = testStoreKind(),
): Promise<AppStore> {
  if (kind === 'sqlite') return openStore(dataDir, catalog)
  return openPgStore(await dataDirDatabaseUrl(dataDir), catalog, {
    max: 4,
    applicationName: 'emberline-api-test',
  })
}
