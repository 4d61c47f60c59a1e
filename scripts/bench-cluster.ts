// npm run bench:cluster [-- --runs N] [--database-url URL]
// The delay from an import committed through one client to the new data served by two other
// server processes on the same PostgreSQL database (the issue #19 benchmark's import → tiles
// figure). Starts a throw-away cluster with scripts/postgres.sh unless --database-url (or
// DATABASE_URL) is given, makes a fresh database on it, starts servers A and B
// (`node --import tsx src/server/main.ts`, STORE=postgres), then N times: replaces
// critical_infrastructure through its own PgStore (COPY, one transaction) and, from the moment the
// commit returns, asks A's and B's tile and records routes every 2 ms until they answer the new
// version. Prints each run and the medians. Loopback only; bounded by --runs (default 9).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { appConfig } from '../src/shared/config'
import { defaultCatalog } from '../src/server/store/catalog'
import { openPgStore } from '../src/server/store/pg/pgStore'

const argv = process.argv.slice(2)
const arg = (k: string): string | undefined => {
  const i = argv.indexOf(`--${k}`)
  return i >= 0 ? argv[i + 1] : undefined
}
const runs = Number(arg('runs') ?? 9)
if (!Number.isInteger(runs) || runs < 1 || runs > 100) throw new Error('--runs must be 1 to 100')
const root = path.resolve(import.meta.dirname, '..')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-cluster-'))
const ADMIN = {
  email: 'bench@emberline-cluster.test',
  password: 'bench password 2026 ok',
  phone: '+15055550199',
}
const identity = appConfig.identity
const BASIC = `Basic ${Buffer.from(`${identity.publicToken}:${identity.publicToken}`).toString('base64')}`

function clusterUrl(): string {
  const given = arg('database-url') ?? process.env.DATABASE_URL
  if (given) return given
  const out = execFileSync(
    'bash',
    [path.join(root, 'scripts/postgres.sh'), 'start', path.join(os.tmpdir(), 'emberline-bench-pg')],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const m = /DATABASE_URL=(\S+)\s*$/.exec(out)
  if (!m?.[1]) throw new Error('scripts/postgres.sh printed no DATABASE_URL')
  return m[1]
}

async function freshDatabase(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_cluster_${crypto.randomBytes(4).toString('hex')}`
  const adminUrl = new URL(base)
  adminUrl.pathname = '/postgres'
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl.toString() })
    await c.connect()
    try {
      await c.query(sql)
    } finally {
      await c.end()
    }
  }
  await admin(`CREATE DATABASE ${name}`)
  const url = new URL(base)
  url.pathname = `/${name}`
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

interface Server {
  url: string
  dataDir: string
  child: ChildProcess
}

async function startServer(name: string, databaseUrl: string): Promise<Server> {
  const port = await freePort()
  const dataDir = path.join(work, name)
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      STORE: 'postgres',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'off',
      LOG_LEVEL: 'warn',
      EMBERLINE_ADMIN_EMAIL: ADMIN.email,
      EMBERLINE_ADMIN_PASSWORD: ADMIN.password,
      EMBERLINE_ADMIN_PHONE: ADMIN.phone,
      STATIC_DIR: path.join(work, 'no-static'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  const end = Date.now() + 120_000
  for (;;) {
    const ok = await fetch(`${url}/api/ready`).then(
      (r) => r.status === 200,
      () => false,
    )
    if (ok) break
    if (Date.now() > end || child.exitCode !== null) throw new Error(`server ${name} did not start`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return { url, dataDir, child }
}

async function signIn(s: Server): Promise<string> {
  const post = async (url: string, body: object) =>
    (
      (await (
        await fetch(`${s.url}/sdk/v1${url}`, {
          method: 'POST',
          headers: { authorization: BASIC, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { data: Record<string, string> }
    ).data
  const org = identity.organizationId
  const login = await post('/b2b/passwords/authenticate', {
    organization_id: org,
    email_address: ADMIN.email,
    password: ADMIN.password,
  })
  const ist = login.intermediate_session_token
  await post('/b2b/otps/sms/send', {
    organization_id: org,
    member_id: login.member_id,
    intermediate_session_token: ist,
  })
  const outbox = path.join(s.dataDir, 'outbox', 'sms.jsonl')
  for (let i = 0; i < 100 && !fs.existsSync(outbox); i++) await new Promise((r) => setTimeout(r, 20))
  const last = fs.readFileSync(outbox, 'utf8').trim().split('\n').pop() ?? '{}'
  const { code } = JSON.parse(last) as { code: string }
  const auth = await post('/b2b/otps/sms/authenticate', {
    organization_id: org,
    member_id: login.member_id,
    code,
    intermediate_session_token: ist,
    session_duration_minutes: 60,
  })
  return auth.session_token ?? ''
}

/** Milliseconds from `since` until `fetchOnce` answers true (asked every 2 ms; 20 s at most). */
async function until(since: number, fetchOnce: () => Promise<boolean>): Promise<number> {
  for (;;) {
    if (await fetchOnce().catch(() => false)) return performance.now() - since
    if (performance.now() - since > 20_000) return Number.NaN
    await new Promise((r) => setTimeout(r, 2))
  }
}

const median = (xs: number[]) => {
  const s = xs.filter((x) => !Number.isNaN(x)).sort((a, b) => a - b)
  return s.length === 0 ? Number.NaN : (s[Math.floor((s.length - 1) / 2)] as number)
}

const base = clusterUrl()
const db = await freshDatabase(base)
const servers: Server[] = []
try {
  const store = await openPgStore(db.url, defaultCatalog(), { max: 2, applicationName: 'emberline-bench' })
  servers.push(await startServer('a', db.url), await startServer('b', db.url))
  const [a, b] = servers as [Server, Server]
  const token = await signIn(b)
  const headers = { authorization: `Bearer ${token}` }
  // The tile of (-106.61, 35.11) at z10 and the dataset's records.
  const tile = '/api/tiles/critical_infrastructure/mvt/10/208/405'
  const results: { tileA: number; tileB: number; recordsB: number }[] = []
  for (let run = 1; run <= runs; run++) {
    const n = 1 + run
    const features = Array.from({ length: n }, (_, i) => ({
      geometry: { type: 'Point' as const, coordinates: [-106.61 + i * 0.001, 35.11] },
      properties: { name: `Bench ${run}.${i}`, type: 'Hospital' },
    }))
    const before = (await fetch(`${b.url}${tile}`, { headers })).headers.get('etag')
    await store.replaceDataset('critical_infrastructure', features)
    const committed = performance.now()
    const newTile = (s: Server) => async () => {
      const res = await fetch(`${s.url}${tile}`, { headers })
      await res.arrayBuffer()
      return res.status === 200 && res.headers.get('etag') !== before
    }
    const [tileA, tileB, recordsB] = await Promise.all([
      until(committed, newTile(a)),
      until(committed, newTile(b)),
      until(committed, async () => {
        const res = await fetch(`${b.url}/api/data/critical_infrastructure/records?limit=1`, { headers })
        return ((await res.json()) as { total: number }).total === n
      }),
    ])
    results.push({ tileA, tileB, recordsB })
    console.log(
      `run ${run}: commit → new tile on A ${tileA.toFixed(1)} ms, on B ${tileB.toFixed(1)} ms, B's records ${recordsB.toFixed(1)} ms`,
    )
    await new Promise((r) => setTimeout(r, 300))
  }
  console.log(
    `median of ${runs} (load ${os.loadavg()[0]?.toFixed(1)}): commit → new tile on A ${median(results.map((r) => r.tileA)).toFixed(1)} ms, on B ${median(results.map((r) => r.tileB)).toFixed(1)} ms, B's records ${median(results.map((r) => r.recordsB)).toFixed(1)} ms`,
  )
  await store.close()
} finally {
  for (const s of servers) s.child.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 1500))
  await db.drop().catch(() => undefined)
  fs.rmSync(work, { recursive: true, force: true })
}
