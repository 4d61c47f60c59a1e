// npm run bench:ingest [-- --buildings N] [--no-grid] [--no-signin]
// The ingestion API (#32, docs/ingest.md) against the CLI: N buildings (default 1,000,000) as
// newline-delimited GeoJSON imported by `npm run import` into one temporary DATA_DIR, then sent
// with POST /api/ingest/datasets/buildings to the real server (a child process) on another, timed
// from the request to the job's `succeeded` (upload, staging and swap, tile data). Meanwhile the
// server's RSS is sampled from /proc and members sign in (password → SMS code → session).
// `--no-signin`: no sign-ins during the job (the control: the server's CPU is then the job's own,
// plus its job polls). Prints both times and their ratio (target ≤ 1.3), the RSS growth (target < 200 MB) and the
// sign-in latencies; then the grid part (scripts/bench/ingestGrid.ts: a CONUS-size GRIB2 field).
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { identitySettings } from '../src/server/identity'
import { createMember } from '../src/server/identity/memberAdmin'
import { openAccountsDb } from '../src/server/store/accountsDb'
import { createIdentityStore } from '../src/server/store/identityStore'
import { benchIngestGrid } from './bench/ingestGrid'
import { rssMiB } from './bench/childServer'
import { sdkFetch, signInBySms } from '../tests/support/smsSignIn'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const BUILDINGS = arg('buildings', 1_000_000)
const SIGN_IN = !args.includes('--no-signin')
// Enough members that none reaches the 10 SMS codes an hour (config/app.yaml) in a long run.
const MEMBERS = 80
const PASSWORD = 'Bench-ingest-Passw0rd!'
const root = path.resolve(import.meta.dirname, '..')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-ingest-'))
const s = identitySettings

/** Deterministic building footprints over New Mexico, one GeoJSON Feature per line. */
function writeBuildings(file: string, n: number): void {
  let seed = 20261127
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const fd = fs.openSync(file, 'w')
  let chunk: string[] = []
  for (let i = 0; i < n; i++) {
    const lon = -108.9 + rnd() * 5.8
    const lat = 31.5 + rnd() * 5.4
    const w = 0.0001 + rnd() * 0.0002
    const h = 0.0001 + rnd() * 0.0002
    const r = (v: number) => Number(v.toFixed(6))
    const ring = [
      [r(lon), r(lat)],
      [r(lon + w), r(lat)],
      [r(lon + w), r(lat + h)],
      [r(lon), r(lat + h)],
      [r(lon), r(lat)],
    ]
    chunk.push(
      JSON.stringify({
        type: 'Feature',
        geometry: { type: 'Polygon', coordinates: [ring] },
        properties: { area_ft2: Math.round(w * h * 1.2e10) },
      }),
    )
    if (chunk.length === 10_000) {
      fs.writeSync(fd, `${chunk.join('\n')}\n`)
      chunk = []
    }
  }
  if (chunk.length) fs.writeSync(fd, `${chunk.join('\n')}\n`)
  fs.closeSync(fd)
}

function run(script: string, argv: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script, ...argv], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** CPU seconds (user + system) a live process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number | undefined): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) / 100
}

const quantile = (xs: number[], q: number) => {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN
}
const fmt = (xs: number[]) =>
  xs.length === 0
    ? 'none'
    : `median ${quantile(xs, 0.5).toFixed(0)} ms, p95 ${quantile(xs, 0.95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms (${xs.length})`

/** A server (src/server/main.ts) on `dataDir`, listening on a port of its choosing. */
async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = 20000 + Math.floor(Math.random() * 20000)
  const child = run('src/server/main.ts', [], {
    DATA_DIR: dataDir,
    PORT: String(port),
    SEED: 'off',
    LOG_LEVEL: 'warn',
    // As `npm start` runs the server (scripts/start.sh): two malloc arenas.
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
  })
  let err = ''
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()))
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child }
    } catch {
      // not listening yet
    }
    if (i > 900 || child.exitCode !== null) throw new Error(`server did not start:\n${err}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/**
 * Waits until a server is idle (three 1 s windows under 0.05 s CPU): after start-up it builds each
 * dataset's tile data in worker threads (~1 s of CPU each to start under tsx) for tens of seconds
 * on a loaded machine, and that CPU must not be counted as the job's. Answers the wait and its CPU.
 */
async function waitIdle(child: ChildProcess): Promise<{ s: number; cpu: number }> {
  const idleFrom = performance.now()
  const startupCpu = cpuSeconds(child.pid)
  for (let quiet = 0; quiet < 3 && performance.now() - idleFrom < 300_000;) {
    const c = cpuSeconds(child.pid)
    await new Promise((r) => setTimeout(r, 1000))
    quiet = cpuSeconds(child.pid) - c < 0.05 ? quiet + 1 : 0
  }
  return { s: (performance.now() - idleFrom) / 1000, cpu: cpuSeconds(child.pid) - startupCpu }
}

async function main(): Promise<void> {
  const file = path.join(work, 'buildings.ndjson')
  writeBuildings(file, BUILDINGS)
  const bytes = fs.statSync(file).size
  console.log(`${BUILDINGS.toLocaleString('en-US')} buildings, ${(bytes / 1e6).toFixed(0)} MB NDJSON`)

  // The CLI (its own process, tsx start-up included, tile data saved), as an operator runs it.
  const cliDir = path.join(work, 'cli')
  fs.mkdirSync(cliDir)
  const c0 = performance.now()
  // Through bash, whose `times` prints the CPU its child used (user and system, after it exited).
  const cli = spawn(
    'bash',
    [
      '-c',
      'node --import tsx scripts/import.ts buildings "$1" --data-dir "$2" >/dev/null || exit 1; times >&2',
      'bench',
      file,
      cliDir,
    ],
    { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let cliErr = ''
  cli.stderr?.on('data', (d: Buffer) => (cliErr += d.toString()))
  const cliCode = await new Promise<number>((r) => cli.on('exit', (code) => r(code ?? 1)))
  const cliS = (performance.now() - c0) / 1000
  if (cliCode !== 0) throw new Error(`npm run import failed:\n${cliErr.slice(-2000)}`)
  // `times`: the shell's own line, then its children's: "0m12.345s 0m1.234s".
  const childTimes = /(\d+)m([\d.]+)s (\d+)m([\d.]+)s\s*$/.exec(cliErr.trim())
  const cliCpu = childTimes
    ? Number(childTimes[1]) * 60 + Number(childTimes[2]) + Number(childTimes[3]) * 60 + Number(childTimes[4])
    : NaN
  console.log(`CLI   npm run import: ${cliS.toFixed(1)} s wall, ${cliCpu.toFixed(1)} s CPU`)

  const dataDir = path.join(work, 'http')
  fs.mkdirSync(dataDir)
  const accounts = openAccountsDb(dataDir)
  const members = createIdentityStore(accounts)
  const emails: string[] = []
  for (let i = 0; i < MEMBERS; i++) {
    const email = `bench${i}@emberline.test`
    const phone = `+1505556${String(1000 + i).padStart(4, '0')}`
    const roles = i === 0 ? ['stytch_member', 'data_importer'] : ['stytch_member']
    await createMember(
      members,
      s,
      { email, name: `Bench ${i}`, phone, password: PASSWORD, roles },
      Date.now(),
    )
    emails.push(email)
  }
  accounts.close()
  const { url, child } = await startServer(dataDir)
  const sdk = sdkFetch(url)
  /** One member's sign-in (password → SMS code → session): its time, session, and failed step. */
  async function signIn(email: string): Promise<{ ms: number; token: string | null; failure?: string }> {
    const r = await signInBySms(sdk, { email, password: PASSWORD, dataDir })
    return { ms: r.ms, token: r.failure ? null : r.token, ...(r.failure ? { failure: r.failure } : {}) }
  }
  const importer = await signIn(emails[0] as string)
  if (!importer.token) throw new Error('the importer could not sign in')
  const before: number[] = []
  for (let i = 1; i <= 5; i++) before.push((await signIn(emails[i] as string)).ms)
  // Wait until the server is idle: after start-up it builds each dataset's tile data in worker
  // threads (~1 s of CPU each to start under tsx) for tens of seconds on a loaded machine, and that
  // CPU must not be counted as the job's.
  const idle = await waitIdle(child)
  console.log(
    `server idle after ${idle.s.toFixed(1)} s more (${idle.cpu.toFixed(1)} s of start-up CPU not counted)`,
  )
  const rss0 = rssMiB(child.pid) ?? NaN

  let busy = true
  let rssPeak = rss0
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssMiB(child.pid) ?? 0)), 100)
  const during: number[] = []
  let failed = 0
  const failures = new Map<string, number>()
  const signLoop = (async () => {
    let m = 1
    while (busy && SIGN_IN) {
      const r = await signIn(emails[(m++ % (MEMBERS - 1)) + 1] as string)
      if (r.token) during.push(r.ms)
      else {
        failed++
        failures.set(r.failure ?? 'no session', (failures.get(r.failure ?? 'no session') ?? 0) + 1)
      }
      await new Promise((res) => setTimeout(res, 250))
    }
  })()

  const cpu0 = cpuSeconds(child.pid)
  const h0 = performance.now()
  const res = await fetch(`${url}/api/ingest/datasets/buildings`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${importer.token}`,
      'content-type': 'application/x-ndjson',
      'content-length': String(bytes),
    },
    body: fs.createReadStream(file) as unknown as BodyInit,
    duplex: 'half',
  } as RequestInit)
  const accepted = (await res.json()) as { job?: string }
  if (res.status !== 202 || !accepted.job)
    throw new Error(`ingest answered ${res.status} ${JSON.stringify(accepted)}`)
  const uploadS = (performance.now() - h0) / 1000
  let job: { status: string; error?: string; summary?: { kept?: number } } = { status: 'queued' }
  while (job.status === 'queued' || job.status === 'running') {
    await new Promise((r) => setTimeout(r, 200))
    job = (await (
      await fetch(`${url}/api/ingest/jobs/${accepted.job}`, {
        headers: { authorization: `Bearer ${importer.token}` },
      })
    ).json()) as typeof job
  }
  const httpS = (performance.now() - h0) / 1000
  const httpCpu = cpuSeconds(child.pid) - cpu0
  busy = false
  await signLoop
  clearInterval(sampler)
  child.kill('SIGTERM')
  if (job.status !== 'succeeded') throw new Error(`the ingest job ${job.status}: ${job.error}`)

  console.log(
    `HTTP  POST /api/ingest/datasets/buildings: ${httpS.toFixed(1)} s (body received in ${uploadS.toFixed(1)} s, ${job.summary?.kept} kept)`,
  )
  console.log(
    `      server CPU during the job: ${httpCpu.toFixed(1)} s (${SIGN_IN ? `${during.length + failed} sign-ins and ` : 'no sign-ins (--no-signin), '}job polls included)`,
  )
  console.log(
    `ratio HTTP / CLI: ${(httpS / cliS).toFixed(2)} wall (target ≤ 1.3), ${(httpCpu / cliCpu).toFixed(2)} CPU`,
  )
  // What serving the new data costs any server, however it arrived: a server started on the CLI's
  // store (the same buildings, no ingestion), idle, against the empty one's RSS before the job.
  const served = await startServer(cliDir)
  await waitIdle(served.child)
  const servedRss = rssMiB(served.child.pid) ?? NaN
  served.child.kill('SIGTERM')
  const growth = rssPeak - rss0
  console.log(
    `server RSS: ${rss0.toFixed(0)} MiB before, peak ${rssPeak.toFixed(0)} MiB, growth ${growth.toFixed(0)} MiB; ` +
      `a server started on the CLI's store holds ${(servedRss - rss0).toFixed(0)} MiB more than the empty one ` +
      `(the data it serves: tile data, records index), so the ingestion's own growth is ${(growth - (servedRss - rss0)).toFixed(0)} MiB ` +
      `(target < 200 MB; tests/api/ingest-scale.test.ts asserts it for a 200 MB body)`,
  )
  console.log(`sign-in before: ${fmt(before)}`)
  console.log(
    `sign-in during: ${fmt(during)}${failed ? `, ${failed} failed (${[...failures].map(([k, n]) => `${k} × ${n}`).join(', ')})` : ''}`,
  )
  console.log(
    `load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}, ${os.cpus().length} cores`,
  )
  fs.rmSync(work, { recursive: true, force: true })
  if (!args.includes('--no-grid')) await benchIngestGrid()
}

await main()
