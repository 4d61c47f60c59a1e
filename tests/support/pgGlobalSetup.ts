import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import {
  dropRunDatabases,
  TEST_PG_ENV,
  TEST_PG_RUN_ENV,
} from '../../src/server/store/pg/testing/pgTestDatabase'

/**
 * Starts (or reuses) the throw-away PostgreSQL/PostGIS cluster of the test run with
 * scripts/postgres.sh and hands its URL to the test workers. Each test makes its own database
 * from the cluster's `emberline` database (PostGIS already there) as a template.
 */
export default function setup(): (() => Promise<void>) | undefined {
  // This run's databases are named after it, so its teardown drops only its own (several runs
  // may share the cluster).
  process.env[TEST_PG_RUN_ENV] ??= crypto.randomBytes(3).toString('hex')
  if (process.env[TEST_PG_ENV]) return undefined
  const dir = process.env.EMBERLINE_TEST_PG_DIR ?? path.join(os.tmpdir(), 'emberline-test-pg')
  const script = path.resolve(import.meta.dirname, '../../scripts/postgres.sh')
  const out = execFileSync('bash', [script, 'start', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const last = out.trim().split('\n').pop() ?? ''
  const m = /^DATABASE_URL=(postgres:\/\/\S+)$/.exec(last)
  if (!m?.[1]) throw new Error(`scripts/postgres.sh printed no DATABASE_URL: ${last}`)
  process.env[TEST_PG_ENV] = m[1]
  return () => dropRunDatabases()
}
