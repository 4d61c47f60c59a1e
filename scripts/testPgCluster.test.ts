import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

// scripts/test.sh stops the throw-away PostgreSQL cluster its run started (it trusts every local
// connection) when the run ends — also when a step fails — unless EMBERLINE_KEEP_TEST_PG=1, and
// leaves alone a cluster that was running before the run. Checked on a cluster of its own.
const root = path.resolve(import.meta.dirname, '..')
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-test-pg-trap-'))

function bash(script: string, env: Record<string, string> = {}): number {
  const r = spawnSync('bash', ['-c', script], {
    cwd: root,
    env: { ...process.env, EMBERLINE_TEST_PG_DIR: dir, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  })
  if (r.status === null) throw new Error(`bash died: ${r.signal}`)
  return r.status
}

/** A test run as scripts/test.sh runs it: the cluster started by the tests, then a failing step. */
const failingRun = `set -euo pipefail
source scripts/testPgCluster.sh
test_pg_watch
trap test_pg_stop EXIT
bash scripts/postgres.sh start "$EMBERLINE_TEST_PG_DIR" >/dev/null
false`

const running = () => bash('bash scripts/postgres.sh status "$EMBERLINE_TEST_PG_DIR"') === 0

afterAll(() => {
  bash('bash scripts/postgres.sh stop "$EMBERLINE_TEST_PG_DIR" >/dev/null 2>&1 || true')
  fs.rmSync(dir, { recursive: true, force: true })
})

describe('the test run and its PostgreSQL cluster', () => {
  it('stops the cluster it started when the run ends, even on a failure', () => {
    expect(bash(failingRun)).toBe(1)
    expect(running()).toBe(false)
  }, 120_000)

  it('keeps it with EMBERLINE_KEEP_TEST_PG=1, and then leaves the running cluster to the next run', () => {
    expect(bash(failingRun, { EMBERLINE_KEEP_TEST_PG: '1' })).toBe(1)
    expect(running()).toBe(true)
    expect(bash(failingRun)).toBe(1)
    expect(running()).toBe(true)
  }, 120_000)
})
