// npm run bench:restart [-- --data-dir DIR --clients N --load-seconds S --cpu-prof DIR]
// The real server (`node --import tsx src/server/main.ts`) on a seeded SQLite store, under a load
// of tile and records requests with a session, killed with SIGKILL and started again while the
// load goes on: prints when it logs that it listens, its first /api/health answer and its first
// /api/ready 200. 127.0.0.1 only; the load is bounded in time. Seed the store first
// (`npm run seed -- --data-dir DIR`).
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { createIdentityContext } from '../src/server/identity/context'
import { issueSession } from '../src/server/identity/sessions'
import { identitySettings } from '../src/server/identity/settings'

const argv = process.argv.slice(2)
const arg = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`)
  return i >= 0 ? (argv[i + 1] ?? fallback) : fallback
}
const dataDir = path.resolve(arg('data-dir', './var'))
const clients = Number(arg('clients', '8'))
const loadSeconds = Number(arg('load-seconds', '20'))
const cpuProf = argv.includes('--cpu-prof') ? path.resolve(arg('cpu-prof', '/tmp')) : null
const port = Number(arg('port', '18311'))
const base = `http://127.0.0.1:${port}`
const root = path.resolve(import.meta.dirname, '..')
const ADMIN = 'ops@emberline-bench-restart.test'

interface Started {
  child: ChildProcess
  listening: () => number
}

function start(prof: boolean): Started {
  let listening = 0
  const flags = prof && cpuProf ? ['--cpu-prof', '--cpu-prof-dir', cpuProf] : []
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'on',
      EMBERLINE_ADMIN_EMAIL: ADMIN,
      EMBERLINE_ADMIN_PASSWORD: 'correct horse battery 42',
      EMBERLINE_ADMIN_PHONE: '+15055550142',
      STATIC_DIR: path.join(dataDir, 'no-static'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8')
      if (!listening && text.includes('Server listening at')) listening = performance.now()
      if (text.includes('"level":50')) process.stderr.write(text)
    })
  return { child, listening: () => listening }
}

async function status(url: string, headers: Record<string, string> = {}): Promise<number> {
  try {
    const res = await fetch(url, { headers })
    await res.arrayBuffer()
    return res.status
  } catch {
    return 0
  }
}

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

/** A session token of the first member, issued straight through the store (no sign-in). */
async function sessionToken(): Promise<string> {
  const store = openStore(dataDir, defaultCatalog())
  try {
    const ctx = await createIdentityContext({
      db: store,
      dataDir,
      settings: identitySettings,
      env: {},
      print: () => undefined,
    })
    const member = await store.members.memberByEmail(ADMIN)
    if (!member) throw new Error(`no member ${ADMIN} in ${dataDir}`)
    return (await issueSession(ctx, member, [], 120)).sessionToken
  } finally {
    store.close()
  }
}

const first = start(false)
await until(async () => (await status(`${base}/api/ready`)) === 200, 600_000, 'first start ready')
const token = await sessionToken()
const auth = { authorization: `Bearer ${token}` }
// Load: each client asks tiles of buildings around New Mexico at z10–14 and records pages.
const loadEnd = Date.now() + loadSeconds * 1000
let answered = 0
let refused = 0
const load = Array.from({ length: clients }, async (_, c) => {
  let i = c
  while (Date.now() < loadEnd) {
    i++
    const z = 10 + (i % 5)
    const n = 2 ** z
    const x = Math.floor(((-106.6 + ((i * 37) % 100) / 100 + 180) / 360) * n)
    const lat = ((34.8 + ((i * 53) % 100) / 100) * Math.PI) / 180
    const y = Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n)
    const url =
      i % 4 === 0
        ? `${base}/api/data/buildings/records?limit=100&offset=${(i * 997) % 150_000}`
        : `${base}/api/tiles/buildings/${z}/${x}/${y}`
    const s = await status(url, auth)
    if (s === 200 || s === 204) answered++
    else {
      refused++
      if (s === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
})
await new Promise((resolve) => setTimeout(resolve, 1000))
// The same load on a warm server: how long a health answer takes anyway.
const warmHealth: number[] = []
for (let i = 0; i < 10; i++) {
  const t = performance.now()
  await status(`${base}/api/health`)
  warmHealth.push(performance.now() - t)
  await new Promise((resolve) => setTimeout(resolve, 100))
}
warmHealth.sort((x, y) => x - y)
const beforeKill = answered
const exited = new Promise((resolve) => first.child.once('exit', resolve))
first.child.kill('SIGKILL')
await exited
const t0 = performance.now()
const again = start(true)
await until(() => again.listening() > 0, 120_000, 'listening')
const listenedAt = again.listening()
await until(async () => (await status(`${base}/api/health`)) === 200, 120_000, 'health')
const health = performance.now() - listenedAt
let notReady = 0
await until(
  async () => {
    const s = await status(`${base}/api/ready`)
    if (s === 503) notReady++
    return s === 200
  },
  600_000,
  'ready',
)
const ready = performance.now() - listenedAt
await Promise.all(load)
console.log(
  `restart after kill -9 under load (${clients} clients, ${beforeKill} answers in the 2 s before the kill; ` +
    `${answered} answered, ${refused} refused or failed in all): listening ${Math.round(listenedAt - t0)} ms after the start, ` +
    `first /api/health ${Math.round(health)} ms after listening, /api/ready 200 after ${Math.round(ready)} ms (${notReady} × 503 before); ` +
    `/api/health under the same load before the kill: median ${Math.round(warmHealth[5] ?? 0)} ms, worst ${Math.round(warmHealth[9] ?? 0)} ms`,
)
again.child.kill(cpuProf ? 'SIGINT' : 'SIGKILL')
await new Promise((resolve) => again.child.once('exit', resolve))
if (cpuProf) console.log(`profile in ${cpuProf}: ${fs.readdirSync(cpuProf).join(', ')}`)
