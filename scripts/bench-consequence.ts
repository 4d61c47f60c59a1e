// npm run -s bench:consequence [-- --store postgres --servers 2 [--in-process] --limit N --buildings N]
// The demo territory's fire consequence run (every line of config's line datasets, ignitions every
// 500 m, up to 8 forecast starts) end to end: seed the demo (fuels, elevation, hourly winds), plan
// the run, let N servers' worker loops (each FireRunService with its own store connection and
// worker threads) take the batches, write the outputs — while tile and /api/health latencies are
// measured through the first server's app. `--store postgres` needs DATABASE_URL (an empty
// database): the servers share its job table (FOR UPDATE SKIP LOCKED). `--limit N` keeps the
// first N ignitions (a part of the territory) for a quick measure. With `--servers N` on PostgreSQL,
// servers 2…N are separate processes (this script with `--role worker`), each with its own store
// connection and worker threads, as separate servers are; `--in-process` runs them in this process
// instead. Figures: docs/fire.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn, type ChildProcess } from 'node:child_process'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { buildApp } from '../src/server/app'
import { seedDemo } from '../src/demo/seedDemo'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { openPgStore } from '../src/server/store/pg/pgStore'
import type { AppStore } from '../src/server/store/AppStore'
import type { SessionVerifier } from '../src/server/auth/sessionVerifier'
import { FireRunService } from '../src/server/fire/runs/FireRunService'
import { DEFAULT_FIRE_RUN_SETTINGS, type FireRunSettings } from '../src/server/fire/runs/fireRunSettings'
import { planFireRun } from '../src/server/fire/runs/planFireRun'
import { windowSettings } from '../src/server/grids/gridCatalog'
import { appConfig } from '../src/shared/config'

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : undefined
}

const verifier: SessionVerifier = {
  async verify() {
    return {
      memberId: 'bench',
      sessionId: 'bench',
      organizationId: 'bench',
      roles: ['stytch_member'],
      expiresAt: new Date(Date.now() + 3_600_000),
    }
  },
}

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!
}

function tileOf(lon: number, lat: number, z: number): [number, number] {
  const n = 2 ** z
  const x = Math.floor(((lon + 180) / 360) * n)
  const r = (lat * Math.PI) / 180
  const y = Math.floor(((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * n)
  return [x, y]
}

/** The first `limit` ignitions of each forecast start. */
function limited<B extends { startHour: number; ignitions: readonly unknown[] }>(
  batches: readonly B[],
  limit: number,
): B[] {
  const used = new Map<number, number>()
  const out: B[] = []
  for (const b of batches) {
    const n = used.get(b.startHour) ?? 0
    if (n >= limit) continue
    const ignitions = b.ignitions.slice(0, limit - n)
    used.set(b.startHour, n + ignitions.length)
    out.push({ ...b, ignitions })
  }
  return out
}

/**
 * `--role worker --run ID --server NAME`: one more server (a process of its own) on DATABASE_URL:
 * its worker loop takes the run's batches until the run is over, then it exits.
 */
async function workerServer(): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url) throw new Error('--role worker needs DATABASE_URL')
  const id = Number(arg('run'))
  const workers = Number(arg('workers') ?? DEFAULT_FIRE_RUN_SETTINGS.workers)
  const store = await openPgStore(url, defaultCatalog(), { max: 4, applicationName: 'bench-consequence' })
  const settings: FireRunSettings = { ...DEFAULT_FIRE_RUN_SETTINGS, workers, pollMs: 200 }
  const service = new FireRunService({ store, settings, window: windowSettings(true), server: arg('server') })
  console.log('ready')
  // Starts when the first server says 'go' (so every server starts at once).
  await new Promise<void>((resolve) =>
    createInterface({ input: process.stdin }).on('line', (l) => l === 'go' && resolve()),
  )
  service.startLoop()
  for (;;) {
    const run = await store.fireRuns.run(id)
    if (!run || run.status !== 'running') break
    await new Promise((r) => setTimeout(r, 500))
  }
  await service.close()
  await store.close()
}

/** Starts server `name` as a process of its own; resolves once its worker loop runs. */
function startServerProcess(name: string, run: number, workers: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      ...process.execArgv,
      process.argv[1]!,
      ...['--role', 'worker', '--run', String(run), '--server', name, '--workers', String(workers)],
    ],
    { stdio: ['pipe', 'pipe', 'inherit'], env: process.env },
  )
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      if (line === 'ready') resolve(child)
      else console.log(`  [${name}] ${line}`)
    })
    child.on('exit', (code) => reject(new Error(`server ${name} exited (${code}) before it was ready`)))
  })
}

async function main(): Promise<void> {
  if (arg('role') === 'worker') {
    await workerServer()
    process.exit(0)
  }
  const kind = arg('store') ?? 'sqlite'
  const servers = Number(arg('servers') ?? 1)
  const limit = arg('limit') ? Number(arg('limit')) : Infinity
  const buildings = Number(arg('buildings') ?? 50_000)
  const workers = Number(arg('workers') ?? DEFAULT_FIRE_RUN_SETTINGS.workers)
  if (kind === 'sqlite' && servers !== 1)
    throw new Error('--servers > 1 needs --store postgres (SQLite has one process)')
  const catalog = defaultCatalog()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-consequence-'))
  const url = process.env.DATABASE_URL
  if (kind === 'postgres' && !url) throw new Error('--store postgres needs DATABASE_URL (an empty database)')
  const open = async (): Promise<AppStore> =>
    kind === 'postgres'
      ? openPgStore(url!, catalog, { max: 4, applicationName: 'bench-consequence' })
      : openStore(dataDir, catalog)
  const stores: AppStore[] = [await open()]
  const store = stores[0]!
  let t = performance.now()
  await seedDemo(store, { buildings })
  console.log(
    `seeded the demo (${buildings} buildings, ${kind}) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  )
  const inProcess = process.argv.includes('--in-process')
  if (inProcess) for (let i = 1; i < servers; i++) stores.push(await open())

  const settings: FireRunSettings = { ...DEFAULT_FIRE_RUN_SETTINGS, workers, pollMs: 200 }
  const window = windowSettings(true)
  const app = await buildApp({ dataDir, demo: true, store, verifier })
  await app.ready()
  const services = stores.map(
    (s, i) =>
      new FireRunService({ store: s, settings, window, server: `server-${String.fromCharCode(65 + i)}` }),
  )

  // The run, planned as the leader plans it (optionally cut to the first `limit` ignitions).
  t = performance.now()
  const plan = await planFireRun(store, settings, window, 'admin', 'bench')
  const planMs = performance.now() - t
  const batches = Number.isFinite(limit) ? limited(plan.batches, limit) : plan.batches
  const { id } = await store.fireRuns.createRun({ ...plan, batches })
  const ignitions = batches.reduce((n, b) => n + b.ignitions.length, 0)
  console.log(
    `run ${id}: ${ignitions} fires (${plan.provenance.ignitions as number} ignitions × ${plan.startHours.length} forecast starts ${JSON.stringify(plan.startHours)}${Number.isFinite(limit) ? `, the first ${limit} per start` : ''}), ${batches.length} batches; planned in ${planMs.toFixed(0)} ms; ${servers} server(s) × ${workers} worker thread(s), ${os.availableParallelism()} cores`,
  )

  // Latency probes while it runs: one tile and /api/health every 100 ms, and the event loop's delay.
  const [cx, cy] = appConfig.map.demo.center as [number, number]
  const [x, y] = tileOf(cx, cy, 12)
  // Warm: each probe tile once (the cold first build is not what a run costs).
  for (let dx = 0; dx < 5; dx++)
    await app.inject({
      method: 'GET',
      url: `/api/tiles/buildings/mvt/12/${x + dx}/${y}`,
      headers: { authorization: 'Bearer x' },
    })
  const tileMs: number[] = []
  const healthMs: number[] = []
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  let probing = true
  const probes = (async () => {
    let k = 0
    while (probing) {
      const dx = k++ % 5
      let s = performance.now()
      const tile = await app.inject({
        method: 'GET',
        url: `/api/tiles/buildings/mvt/12/${x + dx}/${y}`,
        headers: { authorization: 'Bearer x' },
      })
      if (tile.statusCode === 200 || tile.statusCode === 204) tileMs.push(performance.now() - s)
      s = performance.now()
      await app.inject({ method: 'GET', url: '/api/health' })
      healthMs.push(performance.now() - s)
      await new Promise((r) => setTimeout(r, 100))
    }
  })()

  // Servers 2…N as processes of their own (each loads its inputs in its own worker threads).
  const children: ChildProcess[] = []
  if (!inProcess)
    for (let i = 1; i < servers; i++)
      children.push(await startServerProcess(`server-${String.fromCharCode(65 + i)}`, id, workers))
  t = performance.now()
  for (const c of children) c.stdin!.end('go\n')
  for (const s of services) s.startLoop()
  for (;;) {
    const run = await store.fireRuns.run(id)
    if (run && run.status !== 'running') {
      const ms = performance.now() - t
      probing = false
      await probes
      loop.disable()
      console.log(
        `status ${run.status}${run.error ? ` (${run.error})` : ''} after ${(ms / 1000).toFixed(1)} s`,
      )
      for (const s of run.servers)
        console.log(`  ${s.server}: ${s.done} batches, ${(s.batchMs / 1000).toFixed(1)} s of batch time`)
      console.log(`  ${((ms / ignitions) * 1).toFixed(0)} ms per fire end to end`)
      console.log(
        `tiles while it ran: ${tileMs.length} requests, p50 ${pct(tileMs, 0.5).toFixed(1)} ms, p99 ${pct(tileMs, 0.99).toFixed(1)} ms; ` +
          `/api/health p99 ${pct(healthMs, 0.99).toFixed(1)} ms; event-loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms`,
      )
      break
    }
    await new Promise((r) => setTimeout(r, 500))
  }
  for (const s of services) await s.close()
  await Promise.all(
    children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r)))),
  )
  await app.close()
  for (const s of stores) await s.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
