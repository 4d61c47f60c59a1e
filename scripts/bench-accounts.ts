// npm run bench:accounts [-- --calls 2000 --rounds 3]
// What the accounts stores cost per request on PostgreSQL beside SQLite: the session check's reads
// (session by token hash + member; PostgreSQL mode keeps no session cache, so every request pays
// them), a sign-in failure counted on two throttle keys, and two servers (two pools, 8 attempts in
// flight each) failing on one hot key at once — attempts/s, and that every attempt was counted.
// PostgreSQL: DATABASE_URL's cluster when set, else a throw-away cluster started with
// scripts/postgres.sh under $TMPDIR/emberline-bench-pg; each round uses a fresh database, dropped
// afterwards. Prints per round and the median of the rounds.
import { execFileSync } from 'node:child_process'
import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import pg from 'pg'
import { openAccountsDb } from '../src/server/store/accountsDb'
import { createIdentityStore, type IdentityStore } from '../src/server/store/identityStore'
import {
  createIdentityTokenStore,
  type IdentityTokenStore,
  type ThrottleRule,
} from '../src/server/store/identityTokenStore'
import { pgAccountStores } from '../src/server/store/pg/accounts'
import { migratePg, pgDatabase } from '../src/server/store/pg/pgDatabase'

const args = process.argv.slice(2)
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback
}
const calls = Number(arg('calls', '2000'))
const rounds = Number(arg('rounds', '3'))

function clusterUrl(): string {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL
  const script = path.resolve(import.meta.dirname, 'postgres.sh')
  const dir = path.join(os.tmpdir(), 'emberline-bench-pg')
  const out = execFileSync('bash', [script, 'start', dir], { encoding: 'utf8' })
  const m = /DATABASE_URL=(\S+)\s*$/.exec(out)
  if (!m?.[1]) throw new Error('scripts/postgres.sh printed no DATABASE_URL')
  return m[1]
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

async function admin(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: withDatabase(url, 'postgres') })
  await c.connect()
  try {
    await c.query(sql)
  } finally {
    await c.end()
  }
}

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
const median = (xs: number[]): number => sorted(xs)[Math.floor(xs.length / 2)] ?? 0
const p95 = (xs: number[]): number => sorted(xs)[Math.floor(xs.length * 0.95)] ?? 0

/** Milliseconds per call, after 50 warm-up calls. */
async function timed(fn: (i: number) => unknown): Promise<number[]> {
  for (let i = 0; i < 50; i++) await fn(i)
  const times: number[] = []
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now()
    await fn(i)
    times.push(performance.now() - t0)
  }
  return times
}

const failure = (key: string): ThrottleRule => ({ key, max: 1e9, windowMs: 9e12, lockMs: 60_000 })

interface Stores {
  members: IdentityStore
  tokens: IdentityTokenStore
}

/** Per-call medians and p95s of the session check and of a counted sign-in failure. */
async function perCall(s: Stores): Promise<Record<string, number>> {
  await s.members.insertMember({
    memberId: 'm-a',
    organizationId: 'org',
    email: 'a@example.test',
    name: 'A',
    phone: null,
    roles: ['viewer'],
    status: 'active',
    passwordHash: null,
    passwordId: null,
    createdAt: 0,
    updatedAt: 0,
  })
  await s.members.insertSession(
    {
      sessionId: 's',
      memberId: 'm-a',
      factors: [],
      startedAt: 0,
      lastAccessedAt: 0,
      expiresAt: 1e13,
      revokedAt: null,
    },
    'token-hash',
  )
  const check = await timed(async () => {
    await s.members.sessionByTokenHash('token-hash')
    await s.members.memberById('m-a')
  })
  const fail = await timed((i) =>
    s.tokens.throttleAttempt(['email:a', `ip:${i % 5}`], [failure('email:a'), failure(`ip:${i % 5}`)], 1000),
  )
  return { checkMedian: median(check), checkP95: p95(check), failMedian: median(fail), failP95: p95(fail) }
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`
const url = clusterUrl()
const results: Record<string, number>[] = []
for (let round = 1; round <= rounds; round++) {
  const sqliteDb = openAccountsDb(null)
  const sqlite = await perCall({
    members: createIdentityStore(sqliteDb),
    tokens: createIdentityTokenStore(sqliteDb),
  })
  sqliteDb.close()

  const name = `bench_accounts_${crypto.randomBytes(4).toString('hex')}`
  await admin(url, `CREATE DATABASE ${name}`)
  const dbUrl = withDatabase(url, name)
  const servers = [pgDatabase({ url: dbUrl, max: 8 }), pgDatabase({ url: dbUrl, max: 8 })]
  try {
    await migratePg(servers[0] as (typeof servers)[number])
    const stores = servers.map((db) => pgAccountStores(db))
    const postgres = await perCall(stores[0] as Stores)
    // Two servers, 8 attempts in flight each, all failing on one key.
    const total = calls * 2
    let started = 0
    const t0 = performance.now()
    await Promise.all(
      Array.from({ length: 16 }, async (_, w) => {
        const s = stores[w % 2] as Stores
        while (started++ < total) await s.tokens.throttleAttempt(['hot'], [failure('hot')], 1000)
      }),
    )
    const hotPerSecond = (total / (performance.now() - t0)) * 1000
    const counted = (await stores[1]?.tokens.throttle('hot'))?.failures ?? 0
    const r = {
      sqliteCheck: sqlite.checkMedian ?? 0,
      pgCheck: postgres.checkMedian ?? 0,
      pgCheckP95: postgres.checkP95 ?? 0,
      sqliteFail: sqlite.failMedian ?? 0,
      pgFail: postgres.failMedian ?? 0,
      pgFailP95: postgres.failP95 ?? 0,
      hotPerSecond,
    }
    results.push(r)
    console.log(
      `round ${round}: session check median sqlite ${fmt(r.sqliteCheck)}, postgres ${fmt(r.pgCheck)} (p95 ${fmt(r.pgCheckP95)}); ` +
        `counted failure (2 keys) sqlite ${fmt(r.sqliteFail)}, postgres ${fmt(r.pgFail)} (p95 ${fmt(r.pgFailP95)}); ` +
        `one hot key from 2 servers x 8: ${hotPerSecond.toFixed(0)} attempts/s, counted ${counted} of ${total}`,
    )
    if (counted !== total) throw new Error(`the hot key counted ${counted} of ${total} failures`)
  } finally {
    await Promise.all(servers.map((s) => s.close()))
    await admin(url, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}
const med = (k: string) => median(results.map((r) => r[k] ?? 0))
console.log(
  `median of ${rounds} rounds (${calls} calls each): session check sqlite ${fmt(med('sqliteCheck'))}, postgres ${fmt(med('pgCheck'))}; ` +
    `counted failure sqlite ${fmt(med('sqliteFail'))}, postgres ${fmt(med('pgFail'))}; ` +
    `hot key ${med('hotPerSecond').toFixed(0)} attempts/s`,
)
