import crypto from 'node:crypto'
import pg from 'pg'
import { migratePg, pgDatabase, type PgDatabase } from '../pgDatabase'

/** Set by tests/support/pgGlobalSetup.ts: the throw-away cluster's `emberline` database. */
export const TEST_PG_ENV = 'EMBERLINE_TEST_DATABASE_URL'
/** Set by the global setup: a tag in the name of every database this test run makes. */
export const TEST_PG_RUN_ENV = 'EMBERLINE_TEST_PG_RUN'

const runTag = () => (process.env[TEST_PG_RUN_ENV] ?? 'x').replace(/[^a-z0-9]/g, '')

/** The test cluster's URL (the vitest global setup starts it). */
export function testClusterUrl(): string {
  const url = process.env[TEST_PG_ENV]
  if (!url)
    throw new Error(
      `${TEST_PG_ENV} is not set: run the tests through vitest (tests/support/pgGlobalSetup.ts)`,
    )
  return url
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: withDatabase(testClusterUrl(), 'postgres') })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

export interface TestPg {
  /** postgres://… of the fresh database. */
  url: string
  /** A pool on it (migrated when `migrate` was asked). */
  db: PgDatabase
  /** Closes the pool and drops the database. */
  drop(): Promise<void>
}

/** A fresh, empty database on the test cluster (PostGIS enabled, not migrated); its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `t_${runTag()}_${crypto.randomBytes(5).toString('hex')}`
  await admin((c) => c.query(`CREATE DATABASE ${name} TEMPLATE emberline`))
  return withDatabase(testClusterUrl(), name)
}

/**
 * A fresh, empty database on the test cluster (PostGIS enabled; migrated unless `migrate: false`),
 * so every test file works alone. Drop it when done.
 */
export async function testPg(opts: { migrate?: boolean } = {}): Promise<TestPg> {
  const url = await createTestDatabase()
  const name = new URL(url).pathname.slice(1)
  const db = pgDatabase({ url, max: 5, applicationName: 'emberline-test' })
  if (opts.migrate !== false) await migratePg(db)
  let dropped = false
  return {
    url,
    db,
    async drop() {
      if (dropped) return
      dropped = true
      await db.close()
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
    },
  }
}

/** Drops every database this test run made (the global setup's teardown). */
export async function dropRunDatabases(): Promise<void> {
  await admin(async (c) => {
    const { rows } = await c.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE datname LIKE 't\\_' || $1 || '\\_%'",
      [runTag()],
    )
    for (const r of rows) await c.query(`DROP DATABASE IF EXISTS ${r.datname} WITH (FORCE)`)
  })
}
