import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { VectorTile } from '@mapbox/vector-tile'
import Pbf from 'pbf'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stringify } from 'yaml'
import { appConfig, feedsConfig, type FeedsConfig } from '../../src/shared/config'
import { loadCatalog } from '../../src/server/store/loadCatalog'
import { openPgStore } from '../../src/server/store/pg/pgStore'
import { testPg, type TestPg } from '../../src/server/store/pg/testing/pgTestDatabase'

// Two real server processes (`tsx src/server/main.ts`, STORE=postgres) on one database behave
// as one: a session revoked through one is refused by the other at once; wrong passwords through
// both count toward one lockout; an import through the CLI shows in the records and tiles of both;
// exactly one leads the scheduled work (feed polling), and when it is killed the other takes over.

const root = path.resolve(import.meta.dirname, '../..')
const tsx = path.join(root, 'node_modules/.bin/tsx')
const ADMIN = {
  email: 'ops@emberline-cluster.test',
  password: 'correct horse battery 42',
  phone: '+15055550142',
}
const identity = appConfig.identity
const BASIC = `Basic ${Buffer.from(`${identity.publicToken}:${identity.publicToken}`).toString('base64')}`

let pg: TestPg
let work: string
let configDir: string
const servers: Server[] = []

interface Server {
  name: string
  url: string
  dataDir: string
  child: ChildProcess
  log: string[]
  exited: boolean
  exitCode?: number | null
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

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    TMPDIR: process.env.TMPDIR,
    STORE: 'postgres',
    DATABASE_URL: pg.url,
    CONFIG_DIR: configDir,
    ...extra,
  }
}

async function startServer(name: string): Promise<Server> {
  const port = await freePort()
  const dataDir = path.join(work, name)
  // node itself runs the server (tsx as a loader), so a SIGKILL reaches the server, not a wrapper.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: env({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'off',
      FEEDS: 'on',
      EMBERLINE_LEADER_RETRY_SECONDS: '1',
      EMBERLINE_DRAIN_SECONDS: '1',
      EMBERLINE_ADMIN_EMAIL: ADMIN.email,
      EMBERLINE_ADMIN_PASSWORD: ADMIN.password,
      EMBERLINE_ADMIN_PHONE: ADMIN.phone,
      STATIC_DIR: path.join(work, 'no-static'),
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const server: Server = { name, url: `http://127.0.0.1:${port}`, dataDir, child, log: [], exited: false }
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => {
      server.log.push(...chunk.toString('utf8').split('\n').filter(Boolean))
      // EMBERLINE_TEST_LOG_DIR=dir keeps the servers' logs (a.log, b.log) for a failing run.
      if (process.env.EMBERLINE_TEST_LOG_DIR)
        fs.appendFileSync(path.join(process.env.EMBERLINE_TEST_LOG_DIR, `${name}.log`), chunk)
    })
  child.on('exit', (code) => {
    server.exited = true
    server.exitCode = code
  })
  servers.push(server)
  return server
}

async function until<T>(
  what: string,
  fn: () => Promise<T | null | undefined | false>,
  ms = 60_000,
): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await fn().catch(() => null)
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

async function ready(s: Server): Promise<void> {
  await until(
    `${s.name} ready\n${s.log.slice(-20).join('\n')}`,
    async () => {
      if (s.exited) throw new Error(`${s.name} exited:\n${s.log.join('\n')}`)
      return (await fetch(`${s.url}/api/ready`)).status === 200
    },
    120_000,
  )
}

function sdk(s: Server, url: string, body: object, auth = BASIC): Promise<Response> {
  return fetch(`${s.url}/sdk/v1${url}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

function smsCodes(s: Server): string[] {
  const file = path.join(s.dataDir, 'outbox', 'sms.jsonl')
  if (!fs.existsSync(file)) return []
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { code?: string }).code ?? '')
}

/** Password, then the SMS code from the server's outbox: the session token. */
async function signIn(s: Server): Promise<string> {
  const org = identity.organizationId
  const login = await sdk(s, '/b2b/passwords/authenticate', {
    organization_id: org,
    email_address: ADMIN.email,
    password: ADMIN.password,
    session_duration_minutes: 60,
  })
  expect(login.status).toBe(200)
  const { intermediate_session_token: ist, member_id: memberId } = (
    (await login.json()) as { data: { intermediate_session_token: string; member_id: string } }
  ).data
  const sent = smsCodes(s).length
  expect(
    (
      await sdk(s, '/b2b/otps/sms/send', {
        organization_id: org,
        member_id: memberId,
        intermediate_session_token: ist,
      })
    ).status,
  ).toBe(200)
  const code = await until('the SMS code', async () => smsCodes(s)[sent])
  const auth = await sdk(s, '/b2b/otps/sms/authenticate', {
    organization_id: org,
    member_id: memberId,
    code,
    intermediate_session_token: ist,
    session_duration_minutes: 60,
  })
  expect(auth.status).toBe(200)
  return ((await auth.json()) as { data: { session_token: string } }).data.session_token
}

const get = (s: Server, url: string, token: string) =>
  fetch(`${s.url}${url}`, { headers: { authorization: `Bearer ${token}` } })

/** The tile of `lon, lat` at zoom z. */
function tileOf(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z
  const x = Math.floor(((lon + 180) / 360) * n)
  const r = (lat * Math.PI) / 180
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)
  return [z, x, y]
}

/** Names of the features of a critical-infrastructure tile (empty for a 204). */
async function tileNames(s: Server, token: string, [z, x, y]: [number, number, number]): Promise<string[]> {
  const res = await get(s, `/api/tiles/critical_infrastructure/mvt/${z}/${x}/${y}`, token)
  if (res.status === 204) return []
  expect(res.status).toBe(200)
  const tile = new VectorTile(new Pbf(new Uint8Array(await res.arrayBuffer())))
  const names: string[] = []
  for (const layer of Object.values(tile.layers))
    for (let i = 0; i < layer.length; i++) names.push(String(layer.feature(i).properties.name))
  return names.sort()
}

async function recordNames(s: Server, token: string): Promise<string[]> {
  const res = await get(s, '/api/data/critical_infrastructure/records?limit=100', token)
  expect(res.status).toBe(200)
  const body = (await res.json()) as { records: { name: string }[]; total: number }
  return body.records.map((r) => r.name).sort()
}

/** True once `s` logged the refresh of `dataset` at `version` (the DatasetSync, after a notice or a re-check). */
function refreshed(s: Server, dataset: string, version: number): boolean {
  return s.log.some(
    (l) =>
      l.includes('"msg":"dataset replaced') && l.includes(`"dataset":"${dataset}","version":${version},`),
  )
}

let a: Server
let b: Server

beforeAll(async () => {
  pg = await testPg()
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-two-servers-'))
  configDir = path.join(work, 'config')
  fs.mkdirSync(configDir)
  for (const f of ['layers.yaml', 'tables.yaml'])
    fs.copyFileSync(path.join(root, 'config', f), path.join(configDir, f))
  // Scheduled work that needs no network: one feed read from a local file every minute.
  const smoke = feedsConfig.feeds.find((f) => f.id === 'hms-smoke') as FeedsConfig['feeds'][number]
  const feeds: FeedsConfig = {
    ...feedsConfig,
    // Offline: none of the shipped grid feeds (NOAA) is polled.
    gridFeeds: [],
    feeds: [
      {
        ...smoke,
        everyMinutes: 1,
        filter: { bbox: 'none' },
        source: { file: path.join(root, 'tests/fixtures/feeds/hms_smoke20261006_trimmed.kml') },
      },
    ],
  }
  fs.writeFileSync(path.join(configDir, 'feeds.yaml'), stringify(feeds))
  a = await startServer('a')
  b = await startServer('b')
  await Promise.all([ready(a), ready(b)])
}, 240_000)

afterAll(async () => {
  for (const s of servers) if (!s.exited) s.child.kill('SIGKILL')
  await new Promise((r) => setTimeout(r, 200))
  await pg?.drop()
  if (work) fs.rmSync(work, { recursive: true, force: true })
}, 60_000)

describe('two servers on one database', () => {
  it('refuses on A at once a session signed in through A and revoked through B', async () => {
    const token = await signIn(a)
    expect((await get(a, '/api/me', token)).status).toBe(200)
    expect((await get(b, '/api/me', token)).status).toBe(200)
    const basic = `Basic ${Buffer.from(`${identity.publicToken}:${token}`).toString('base64')}`
    expect((await sdk(b, '/b2b/sessions/revoke', {}, basic)).status).toBe(200)
    expect((await get(a, '/api/me', token)).status).toBe(401)
    expect((await get(b, '/api/me', token)).status).toBe(401)
  }, 60_000)

  it('counts wrong passwords through A and B toward one lockout', async () => {
    const attempt = (s: Server, password: string) =>
      sdk(s, '/b2b/passwords/authenticate', {
        organization_id: identity.organizationId,
        email_address: 'lockout@emberline-cluster.test',
        password,
      })
    const half = identity.throttle.maxFailures / 2
    for (let i = 0; i < half; i++) {
      expect((await attempt(a, `wrong ${i}`)).status).toBe(401)
      expect((await attempt(b, `wrong ${i}`)).status).toBe(401)
    }
    // Each server saw only half the failures; together they reached the limit.
    expect((await attempt(a, 'another')).status).toBe(429)
    expect((await attempt(b, 'another')).status).toBe(429)
  }, 60_000)

  it('shows an import through the CLI in the records and tiles of both servers', async () => {
    const token = await signIn(b)
    const points = [
      [-106.61, 35.11, 'Cluster Hospital'],
      [-106.6, 35.12, 'Cluster Substation'],
      [-106.62, 35.1, 'Cluster Fire Station'],
    ] as const
    const file = path.join(work, 'infrastructure.ndjson')
    fs.writeFileSync(
      file,
      points
        .map(([lon, lat, name]) =>
          JSON.stringify({
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [lon, lat] },
            properties: { name, type: 'Hospital' },
          }),
        )
        .join('\n') + '\n',
    )
    const tile = tileOf(-106.61, 35.11, 10)
    expect(await tileNames(a, token, tile)).toEqual([])
    expect(await recordNames(b, token)).toEqual([])

    // Watch B's tile while the CLI imports: the delay from the commit (the CLI prints its line
    // right after it) to B serving the new tile.
    let committedAt = 0
    let seenAt = 0
    let watching = true
    const watch = (async () => {
      while (watching) {
        const names = await tileNames(b, token, tile)
        if (names.length === points.length) {
          seenAt = performance.now()
          return
        }
        await new Promise((r) => setTimeout(r, 5))
      }
    })()
    const cli = spawn(tsx, ['scripts/import.ts', 'critical_infrastructure', file, '--inline'], {
      cwd: root,
      env: env({ DATA_DIR: path.join(work, 'cli') }),
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const out: string[] = []
    cli.stdout.on('data', (c: Buffer) => {
      if (!committedAt && c.toString().includes('imported 3 features')) committedAt = performance.now()
      out.push(c.toString())
    })
    cli.stderr.on('data', (c: Buffer) => out.push(c.toString()))
    const code = await new Promise<number | null>((r) => cli.on('exit', r))
    expect(code, out.join('')).toBe(0)
    await Promise.race([watch, new Promise((r) => setTimeout(r, 20_000))])
    watching = false
    const expected = points.map((p) => p[2]).sort()
    expect(await tileNames(b, token, tile)).toEqual(expected)
    expect(await tileNames(a, token, tile)).toEqual(expected)
    expect(await recordNames(a, token)).toEqual(expected)
    expect(await recordNames(b, token)).toEqual(expected)
    if (committedAt && seenAt)
      console.log(
        `[cluster] import committed through the CLI → new tile served by B: ${Math.round(seenAt - committedAt)} ms`,
      )
    // Both heard the notification and refreshed the dataset (not only their info cache expiring).
    for (const s of [a, b])
      await until(`${s.name} to refresh critical_infrastructure`, async () =>
        refreshed(s, 'critical_infrastructure', 1),
      )
  }, 120_000)

  it('catches up on an import made while its LISTEN connection was down', async () => {
    const token = await signIn(a)
    const lost = (s: Server) => s.log.filter((l) => l.includes('dataset change channel lost')).length
    // Drop both servers' LISTEN sessions (as a database restart or a network cut would) and
    // import at once, before they reconnect (every 2 s): the notification goes to no one.
    await pg.db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = 'emberline-listen'`,
    )
    const store = await openPgStore(pg.url, loadCatalog(configDir), { max: 1 })
    try {
      await store.replaceDataset('critical_infrastructure', [
        {
          geometry: { type: 'Point', coordinates: [-106.61, 35.11] },
          properties: { name: 'After the cut', type: 'Hospital' },
        },
      ])
    } finally {
      await store.close()
    }
    const version = 2
    for (const s of [a, b]) {
      await until(`${s.name} to notice the lost channel`, async () => lost(s) > 0)
      // Reconnected, it re-checked every dataset's version and refreshed the one that moved.
      await until(
        `${s.name} to catch up`,
        async () => refreshed(s, 'critical_infrastructure', version),
        20_000,
      )
    }
    expect(await recordNames(b, token)).toEqual(['After the cut'])
    expect(await tileNames(b, token, tileOf(-106.61, 35.11, 10))).toEqual(['After the cut'])
  }, 60_000)

  it('runs the scheduled work on exactly one server, and the other takes over when it is killed', async () => {
    const leading = (s: Server) => s.log.filter((l) => l.includes('"msg":"leading the scheduled work')).length
    await until('a leader', async () => leading(a) + leading(b) > 0, 30_000)
    expect(leading(a) + leading(b)).toBe(1)
    const [leader, other] = leading(a) ? [a, b] : [b, a]
    const token = await signIn(other)
    const lastAttempt = async () => {
      const res = await get(other, '/api/feeds', token)
      const body = (await res.json()) as { feeds: { id: string; lastAttemptAt: string | null }[] }
      return body.feeds[0]?.lastAttemptAt ?? null
    }
    // The leader polled the feed (its first run at once).
    await until('the leader’s first feed run', lastAttempt, 30_000)

    leader.child.kill('SIGKILL')
    await until('the leader to exit', async () => leader.exited)
    const killedAt = Date.now()
    await until('the other server to lead', async () => leading(other) === 1, 15_000)
    // It polls: the feed's last attempt moves past the kill.
    await until(
      'a feed run by the new leader',
      async () => {
        const at = await lastAttempt()
        return at !== null && Date.parse(at) >= killedAt - 1000 && at
      },
      30_000,
    )
    expect((await fetch(`${other.url}/api/ready`)).status).toBe(200)
  }, 120_000)

  it('drains on SIGTERM: not ready at once, still answering, then exits and hands the leadership back', async () => {
    const survivor = servers.find((s) => !s.exited) as Server
    survivor.child.kill('SIGTERM')
    await until('readiness 503', async () => (await fetch(`${survivor.url}/api/ready`)).status === 503, 5_000)
    // Draining (EMBERLINE_DRAIN_SECONDS=1): requests are still answered while the balancer notices.
    expect((await fetch(`${survivor.url}/api/health`)).status).toBe(200)
    await until('the server to exit', async () => survivor.exited, 20_000)
    expect(survivor.exitCode).toBe(0)
    // This database's locks only: other test files hold advisory locks in their own databases of
    // the same cluster meanwhile (render locks, the leader lock, migrations).
    const held = await pg.db.query(
      "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
    )
    expect(held).toEqual([])
    const sessions = await pg.db.query(
      "SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'emberline%' AND application_name <> 'emberline-test'",
    )
    expect(sessions).toEqual([])
  }, 60_000)
})
