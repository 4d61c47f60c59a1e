import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../e2e/support/startServer'

// The real server (`tsx src/server/main.ts`) restarted after `kill -9` on a seeded store: once it
// logs that it listens, GET /api/health answers at once (nothing blocks its thread after listen:
// the warm-up runs in worker threads or in slices), and GET /api/ready says 200 only once the
// warm-up is done (503 "starting" before).
const root = path.resolve(import.meta.dirname, '../..')
const BUILDINGS = 60_000
let dataDir = ''
let child: ChildProcess | undefined

interface Started {
  url: string
  child: ChildProcess
  /** performance.now() when the server logged that it listens (0 until then). */
  listening: () => number
  log: string[]
}

async function start(): Promise<Started> {
  const port = await freePort()
  const log: string[] = []
  let listening = 0
  const c = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      TMPDIR: process.env.TMPDIR,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'on',
      SEED_BUILDINGS: String(BUILDINGS),
      EMBERLINE_ADMIN_EMAIL: 'ops@emberline-restart.test',
      EMBERLINE_ADMIN_PASSWORD: 'correct horse battery 42',
      EMBERLINE_ADMIN_PHONE: '+15055550142',
      STATIC_DIR: path.join(dataDir, 'no-static'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  for (const stream of [c.stdout, c.stderr])
    stream?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8')
      log.push(...text.split('\n').filter(Boolean))
      if (!listening && text.includes('Server listening at')) listening = performance.now()
    })
  child = c
  return { url: `http://127.0.0.1:${port}`, child: c, listening: () => listening, log }
}

async function status(url: string): Promise<number> {
  try {
    return (await fetch(url)).status
  } catch {
    return 0
  }
}

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number): Promise<void> {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-restart-'))
})
afterAll(() => {
  child?.kill('SIGKILL')
  fs.rmSync(dataDir, { recursive: true, force: true })
})

describe('restart after kill -9', () => {
  it('answers /api/health right after it listens, and /api/ready 200 only once warmed up', async () => {
    // First start: seeds the store and warms up; then killed without warning.
    const first = await start()
    await until(
      `first start ready\n${first.log.slice(-10).join('\n')}`,
      async () => (await status(`${first.url}/api/ready`)) === 200,
      400_000,
    )
    const exited = new Promise((resolve) => first.child.once('exit', resolve))
    first.child.kill('SIGKILL')
    await exited

    const again = await start()
    const readyStates: number[] = []
    await until(`listening\n${again.log.slice(-10).join('\n')}`, () => again.listening() > 0, 120_000)
    const listenedAt = again.listening()
    await until('a health answer', async () => (await status(`${again.url}/api/health`)) === 200, 60_000)
    const healthAfterListen = performance.now() - listenedAt
    await until(
      'ready',
      async () => {
        const s = await status(`${again.url}/api/ready`)
        readyStates.push(s)
        return s === 200
      },
      120_000,
    )
    const readyAfterListen = performance.now() - listenedAt
    console.log(
      `restart after kill -9 (${BUILDINGS} buildings): first /api/health ${Math.round(healthAfterListen)} ms after listening, ` +
        `/api/ready 200 after ${Math.round(readyAfterListen)} ms (${readyStates.filter((s) => s === 503).length} × 503 before)`,
    )
    // A bound this shared test machine (load ~20 on 2 cores) holds: the reported failure was 16 s.
    expect(healthAfterListen).toBeLessThan(3000)
    // Ready came last, after answers of 503 'starting' while warming up (it used to say 200 at once).
    expect(readyStates.filter((s) => s === 503).length).toBeGreaterThan(0)
    expect(readyStates.at(-1)).toBe(200)
  }, 600_000)
})
