import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, closeSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

/** The first member the test server creates (EMBERLINE_ADMIN_*). */
export interface TestAdmin {
  email: string
  password: string
  phone: string
}

export interface TestServer {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string
  /** The server's DATA_DIR (temp); the outbox is under <dataDir>/outbox. */
  dataDir: string
  admin: TestAdmin
  /** The server's combined stdout/stderr so far (for failure messages). */
  log(): string
  stop(): Promise<void>
}

export interface StartServerOptions {
  /** Extra environment for the server process (overrides the defaults below). */
  env?: Record<string, string>
  /** Buildings to seed (SEED_BUILDINGS); small by default to keep start-up fast. */
  seedBuildings?: number
  /** Demo mode (DEMO); on by default. */
  demo?: boolean
  /** How long to wait for GET /api/health, default 150 s (first start seeds the store). */
  startTimeoutMs?: number
}

export const defaultAdmin: TestAdmin = {
  email: 'admin@emberline.test',
  password: 'Ember-line-Test-Passw0rd!',
  phone: '+15055550142',
}

const repoRoot = resolve(import.meta.dirname, '../../..')

/** A free TCP port on 127.0.0.1 (the OS picks it through listen(0)). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer()
    probe.once('error', fail)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address ? address.port : 0
      probe.close(() => done(port))
    })
  })
}

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`)
    try {
      const response = await fetch(`${url}/api/health`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((wait) => setTimeout(wait, 250))
  }
  throw new Error(`server did not answer ${url}/api/health within ${timeoutMs} ms`)
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((done) => {
    const force = setTimeout(() => killGroup(child, 'SIGKILL'), 8000)
    child.once('exit', () => {
      clearTimeout(force)
      done()
    })
    killGroup(child, 'SIGTERM')
  })
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  // npx → tsx → node: the server runs in its own process group, so signal the group.
  try {
    if (child.pid) process.kill(-child.pid, signal)
  } catch {
    child.kill(signal)
  }
}

/**
 * Starts the real server (`npx tsx src/server/main.ts`) serving the built app from dist/,
 * with a temp DATA_DIR seeded with demo data, a free port and the first member from
 * EMBERLINE_ADMIN_*. Build first: `npm run build`.
 */
export async function startServer(options: StartServerOptions = {}): Promise<TestServer> {
  // STATIC_DIR (the server's option) lets a test serve another build; dist/ by default.
  const staticDir = options.env?.STATIC_DIR ?? process.env.STATIC_DIR ?? join(repoRoot, 'dist')
  if (!existsSync(join(staticDir, 'index.html'))) {
    throw new Error(`${staticDir}/index.html is missing: run \`npm run build\` before the e2e tests`)
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'emberline-e2e-'))
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const admin = { ...defaultAdmin }
  const logPath = join(dataDir, 'server.log')
  const logFd = openSync(logPath, 'a')
  const child = spawn('npx', ['tsx', 'src/server/main.ts'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', logFd, logFd],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: options.demo === false ? '0' : '1',
      SEED_BUILDINGS: String(options.seedBuildings ?? 2000),
      EMBERLINE_ADMIN_EMAIL: admin.email,
      EMBERLINE_ADMIN_PASSWORD: admin.password,
      EMBERLINE_ADMIN_PHONE: admin.phone,
      // The journeys sign the one admin in far more often than the hourly SMS cap allows a member.
      EMBERLINE_SMS_MAX_PER_HOUR: '10000',
      ...options.env,
    },
  })
  closeSync(logFd)
  const log = (): string => (existsSync(logPath) ? readFileSync(logPath, 'utf8') : '')
  const stop = async (): Promise<void> => {
    await stopChild(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    await waitForHealth(url, child, options.startTimeoutMs ?? 150_000)
  } catch (error) {
    const tail = log().split('\n').slice(-40).join('\n')
    await stop()
    throw new Error(`${(error as Error).message}\n--- server log (tail) ---\n${tail}`)
  }
  return { url, dataDir, admin, log, stop }
}
