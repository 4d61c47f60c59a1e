// npm run -s bench:consequence [-- --store postgres --servers 2 [--in-process] --limit N --buildings N]
// npm run -s bench:consequence -- --store postgres --machines --limit N   (1 vs 2 servers, a core each)
// The demo territory's fire consequence run (every line of config's line datasets, ignitions every
// 500 m, up to 8 forecast starts) end to end: seed the demo (fuels, elevation, hourly winds), plan
// the run, let N servers' worker loops (each FireRunService with its own store connection and
// worker threads) take the batches, write the outputs — while tile and /api/health latencies are
// measured through the first server's app. `--store postgres` needs DATABASE_URL (an empty
// database): the servers share its job table (FOR UPDATE SKIP LOCKED). `--limit N` keeps the
// first N ignitions (a part of the territory) for a quick measure. With `--servers N` on PostgreSQL,
// servers 2…N are separate processes (this script with `--role worker`), each with its own store
// connection and worker threads, as separate servers are; `--in-process` runs them in this process
// instead. Before and during the run, members sign in (password → SMS code → session, as
// bench:ingest does) and tiles are requested; the figures printed: wall, CPU (this process with its
// threads, and each other server's), fires/s, tile p50/p99 and sign-in p50/p99 before and during.
// `--machines` (PostgreSQL) emulates two machines of one core each on this one: a run with one
// server pinned to core 0 (taskset) and one worker thread, then a run with that server and a second
// server process pinned to core 1, one worker thread each, sharing the job table (`--two-first`: the
// two-server run first; `--rounds N`: N pairs in ABBA order, and the ratio of the medians;
// `--no-probes`: no tiles or sign-ins meanwhile, which otherwise take a share of server A's core for
// the whole of each run); it prints PostgreSQL's CPU during each run (a cluster on this machine), fires/s of
// both and the ratio (`machines: 1 server … fires/s, 2 servers … fires/s: R×`), the ratio by CPU
// (`machines by CPU: …`: the lone server's CPU over the busier of the two), and per server its
// batches, CPU, block cache hit rate and the time its threads took to read the run's inputs.
// Figures: docs/fire.md.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
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
import type { BlockCacheStats } from '../src/server/fire/simulate'
import { DEFAULT_FIRE_RUN_SETTINGS, type FireRunSettings } from '../src/server/fire/runs/fireRunSettings'
import { planFireRun } from '../src/server/fire/runs/planFireRun'
import { windowSettings } from '../src/server/grids/gridCatalog'
import { appConfig } from '../src/shared/config'
import { identitySettings } from '../src/server/identity'
import { createMember } from '../src/server/identity/memberAdmin'
import { sdkInject, signInBySms } from '../tests/support/smsSignIn'
import pg from 'pg'
import { cpuMs } from './bench/childServer'

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
 * The postmaster of DATABASE_URL's cluster when it runs on this machine (the parent of a backend of
 * ours), so the run's PostgreSQL CPU can be counted; undefined for a remote cluster.
 */
async function localPostmaster(url: string): Promise<number | undefined> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    const pid = Number((await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid)
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
  } catch {
    return undefined
  } finally {
    await c.end()
  }
}

/**
 * Run `id`'s status, from the runs row alone: the bench's polls (every 200 ms, by each server) do
 * not count the run's batches as `fireRuns.run` does — a cost to PostgreSQL no server pays in a run.
 */
async function runStatus(store: AppStore, id: number): Promise<string | undefined> {
  return (await store.fireRuns.runs(1)).find((r) => r.id === id)?.status
}

/** CPU seconds (user + system) of this process, worker threads included. */
const cpuS = () => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1e6
}

/**
 * `--role worker --run ID --server NAME`: one more server (a process of its own) on DATABASE_URL:
 * its worker loop takes the run's batches until the run is over, then it prints its CPU and exits.
 */
async function workerServer(): Promise<void> {
  const url = process.env.DATABASE_URL
  if (!url) throw new Error('--role worker needs DATABASE_URL')
  const id = Number(arg('run'))
  const workers = Number(arg('workers') ?? DEFAULT_FIRE_RUN_SETTINGS.workers)
  const store = await openPgStore(url, defaultCatalog(), { max: 4, applicationName: 'bench-consequence' })
  const settings: FireRunSettings = { ...DEFAULT_FIRE_RUN_SETTINGS, workers, pollMs: 200 }
  const service = new FireRunService({
    store,
    settings,
    window: windowSettings(true),
    server: arg('server'),
    warn: (m, e) => console.error(m, e),
  })
  // A server's threads are up long before a run comes: started ahead, not timed.
  await service.warm()
  console.log('ready')
  // Starts when the first server says 'go' (so every server starts at once).
  await new Promise<void>((resolve) =>
    createInterface({ input: process.stdin }).on('line', (l) => l === 'go' && resolve()),
  )
  const cpu0 = cpuS()
  service.startLoop()
  while ((await runStatus(store, id)) === 'running') await new Promise((r) => setTimeout(r, 200))
  const cache = service.cacheStats()
  await service.close()
  if (cache) console.log(`cache ${JSON.stringify(cache)}`)
  if (service.inputsReadMs !== undefined) console.log(`inputs read in ${service.inputsReadMs.toFixed(0)} ms`)
  console.log(`cpu ${(cpuS() - cpu0).toFixed(3)}`)
  await store.close()
}

/** Starts server `name` as a process of its own (on `core` alone when given); resolves once it runs. */
function startServerProcess(
  name: string,
  run: number,
  workers: number,
  core: number | null,
  cpu: Map<string, number>,
  caches: Map<string, BlockCacheStats>,
): Promise<ChildProcess> {
  const node = [
    process.execPath,
    ...process.execArgv,
    process.argv[1]!,
    ...['--role', 'worker', '--run', String(run), '--server', name, '--workers', String(workers)],
  ]
  const [cmd, ...args] = core === null ? node : ['taskset', '-c', String(core), ...node]
  const child = spawn(cmd!, args, { stdio: ['pipe', 'pipe', 'inherit'], env: process.env })
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.on('line', (line) => {
      if (line === 'ready') resolve(child)
      else if (line.startsWith('cpu ')) cpu.set(name, Number(line.slice(4)))
      else if (line.startsWith('cache ')) caches.set(name, JSON.parse(line.slice(6)) as BlockCacheStats)
      else console.log(`  [${name}] ${line}`)
    })
    child.on('exit', (code) => reject(new Error(`server ${name} exited (${code}) before it was ready`)))
  })
}

/** Pins every thread of this process (and the threads it starts later) to `core`. */
function pinSelf(core: number): void {
  const r = spawnSync('taskset', ['-a', '-c', '-p', String(core), String(process.pid)], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`taskset failed: ${r.stderr}`)
}

// The identity plugin prints each SMS code it sends ("[outbox] …"): not the bench's output.
const write = process.stdout.write.bind(process.stdout)
process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) =>
  typeof chunk === 'string' && chunk.startsWith('[outbox]') ? true : write(chunk, ...rest)) as typeof write

// A sign-in a second at most: 100 members allow 1,000 codes an hour (10 each), an hour of sign-ins.
const MEMBERS = 100
const PASSWORD = 'Bench-consequence-Passw0rd!'

async function main(): Promise<void> {
  if (arg('role') === 'worker') {
    await workerServer()
    process.exit(0)
  }
  const kind = arg('store') ?? 'sqlite'
  const machines = process.argv.includes('--machines')
  const noProbes = process.argv.includes('--no-probes')
  const servers = Number(arg('servers') ?? 1)
  const limit = arg('limit') ? Number(arg('limit')) : Infinity
  const buildings = Number(arg('buildings') ?? 50_000)
  const workers = machines ? 1 : Number(arg('workers') ?? DEFAULT_FIRE_RUN_SETTINGS.workers)
  if (kind === 'sqlite' && (servers !== 1 || machines))
    throw new Error('--servers > 1 and --machines need --store postgres (SQLite has one process)')
  const catalog = defaultCatalog()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-consequence-'))
  const url = process.env.DATABASE_URL
  if (kind === 'postgres' && !url) throw new Error('--store postgres needs DATABASE_URL (an empty database)')
  const open = async (): Promise<AppStore> =>
    kind === 'postgres'
      ? openPgStore(url!, catalog, { max: 4, applicationName: 'bench-consequence' })
      : openStore(dataDir, catalog)
  const store = await open()
  // PostgreSQL's own CPU during a run, when the cluster is on this machine.
  const postmaster = kind === 'postgres' ? await localPostmaster(url!) : undefined
  let t = performance.now()
  await seedDemo(store, { buildings })
  console.log(
    `seeded the demo (${buildings} buildings, ${kind}) in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  )
  // Members who sign in meanwhile (enough that none reaches the 10 SMS codes an hour).
  const emails: string[] = []
  for (let i = 0; i < MEMBERS; i++) {
    const email = `bench${i}@emberline.test`
    await createMember(
      store.members,
      identitySettings,
      {
        email,
        name: `Bench ${i}`,
        phone: `+1505557${String(1000 + i).padStart(4, '0')}`,
        password: PASSWORD,
        roles: ['stytch_member'],
      },
      Date.now(),
    )
    emails.push(email)
  }
  const inProcess = process.argv.includes('--in-process')
  const extraStores: AppStore[] = []
  if (inProcess) for (let i = 1; i < servers; i++) extraStores.push(await open())

  const batchSize = Number(arg('batch-size') ?? DEFAULT_FIRE_RUN_SETTINGS.batchSize)
  const settings: FireRunSettings = { ...DEFAULT_FIRE_RUN_SETTINGS, workers, batchSize, pollMs: 200 }
  const window = windowSettings(true)
  const app = await buildApp({ dataDir, demo: true, store, verifier })
  await app.ready()

  // Probes: one tile and one /api/health every 100 ms, and a member signing in every second.
  const [cx, cy] = appConfig.map.demo.center as [number, number]
  const [x, y] = tileOf(cx, cy, 12)
  const tile = async (dx: number) => {
    const s = performance.now()
    const res = await app.inject({
      method: 'GET',
      url: `/api/tiles/buildings/mvt/12/${x + dx}/${y}`,
      headers: { authorization: 'Bearer x' },
    })
    return res.statusCode === 200 || res.statusCode === 204 ? performance.now() - s : null
  }
  // Warm: each probe tile once (the cold first build is not what a run costs).
  for (let dx = 0; dx < 5; dx++) await tile(dx)
  const sdk = sdkInject(app)
  let signedIn = 0
  /** One sign-in (password → SMS code → session): its ms, or null when it failed. */
  async function signIn(): Promise<number | null> {
    const email = emails[signedIn++ % MEMBERS]!
    const r = await signInBySms(sdk, { email, password: PASSWORD, dataDir })
    return r.failure ? null : r.ms
  }
  interface Probed {
    tileMs: number[]
    healthMs: number[]
    signInMs: number[]
    signInFailed: number
  }
  /** Probes until `stop()`: tiles and health every 100 ms, a sign-in every second. */
  function probe(): { stop: () => Promise<Probed> } {
    const out: Probed = { tileMs: [], healthMs: [], signInMs: [], signInFailed: 0 }
    // `--no-probes`: none (the fires alone: with probes, server A also serves them all run long).
    let on = !noProbes
    const tiles = (async () => {
      let k = 0
      while (on) {
        const ms = await tile(k++ % 5)
        if (ms !== null) out.tileMs.push(ms)
        const s = performance.now()
        await app.inject({ method: 'GET', url: '/api/health' })
        out.healthMs.push(performance.now() - s)
        await new Promise((r) => setTimeout(r, 100))
      }
    })()
    const signIns = (async () => {
      while (on) {
        const ms = await signIn()
        if (ms === null) out.signInFailed++
        else out.signInMs.push(ms)
        await new Promise((r) => setTimeout(r, 1000))
      }
    })()
    return {
      stop: async () => {
        on = false
        await Promise.all([tiles, signIns])
        return out
      },
    }
  }
  const fmt = (xs: number[]) =>
    `p50 ${pct(xs, 0.5).toFixed(1)} ms, p99 ${pct(xs, 0.99).toFixed(1)} ms (${xs.length})`
  const report = (label: string, p: Probed) =>
    console.log(
      `${label}: tiles ${fmt(p.tileMs)}; sign-in ${fmt(p.signInMs)}${p.signInFailed ? `, ${p.signInFailed} failed` : ''}; /api/health p99 ${pct(p.healthMs, 0.99).toFixed(1)} ms`,
    )

  // Before any run: the same probes for 15 s on the idle server.
  {
    const p = probe()
    await new Promise((r) => setTimeout(r, 15_000))
    report('before the run', await p.stop())
  }

  /** One run with `n` servers (the first: this process); answers fires/s. */
  /** A run's fires/s and each server's CPU seconds. */
  interface RunFigures {
    fps: number
    cpu: Map<string, number>
  }

  /** One run with `n` servers (the first: this process). */
  async function runWith(n: number, pinned: boolean): Promise<RunFigures> {
    const services = [store, ...extraStores.slice(0, n - 1)].map(
      (s, i) =>
        new FireRunService({
          store: s,
          settings,
          window,
          server: `server-${String.fromCharCode(65 + i)}`,
          warn: (m, e) => console.error(m, e),
        }),
    )
    // The run, planned as the leader plans it (optionally cut to the first `limit` ignitions).
    t = performance.now()
    const plan = await planFireRun(store, settings, window, 'admin', 'bench')
    const planMs = performance.now() - t
    const batches = Number.isFinite(limit) ? limited(plan.batches, limit) : plan.batches
    const { id } = await store.fireRuns.createRun({ ...plan, batches })
    const ignitions = batches.reduce((k, b) => k + b.ignitions.length, 0)
    console.log(
      `run ${id}: ${ignitions} fires (${plan.provenance.ignitions as number} ignitions × ${plan.startHours.length} forecast starts ${JSON.stringify(plan.startHours)}${Number.isFinite(limit) ? `, the first ${limit} per start` : ''}), ${batches.length} batches; planned in ${planMs.toFixed(0)} ms; ${n} server(s) × ${workers} worker thread(s)${pinned ? ', each server pinned to a core of its own' : ''}, ${os.cpus().length} cores, load ${os.loadavg()[0]!.toFixed(1)}`,
    )
    // Servers 2…N as processes of their own (each loads its inputs in its own worker threads).
    const childCpu = new Map<string, number>()
    const caches = new Map<string, BlockCacheStats>()
    const children: ChildProcess[] = []
    if (!inProcess)
      for (let i = 1; i < n; i++)
        children.push(
          await startServerProcess(
            `server-${String.fromCharCode(65 + i)}`,
            id,
            workers,
            pinned ? i : null,
            childCpu,
            caches,
          ),
        )
    for (const s of services) await s.warm()
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    // Where the event loop stalled: each gap over 250 ms between ticks of a 10 ms timer.
    const stalls: string[] = []
    let tick = performance.now()
    const ticker = setInterval(() => {
      const now = performance.now()
      if (now - tick > 250) stalls.push(`${((tick - t) / 1000).toFixed(1)} s: ${(now - tick).toFixed(0)} ms`)
      tick = now
    }, 10)
    const p = probe()
    t = performance.now()
    const cpu0 = cpuS()
    const pgCpu0 = postmaster ? cpuMs([], postmaster) : 0
    for (const c of children) c.stdin!.end('go\n')
    for (const s of services) s.startLoop()
    let figures: RunFigures = { fps: NaN, cpu: new Map() }
    for (;;) {
      const status = await runStatus(store, id)
      const run = status && status !== 'running' ? await store.fireRuns.run(id) : undefined
      if (run) {
        const ms = performance.now() - t
        const cpu = cpuS() - cpu0
        const pgCpu = postmaster ? (cpuMs([], postmaster) - pgCpu0) / 1000 : undefined
        services.forEach((s) => {
          const c = s.cacheStats()
          if (c) caches.set(s.server, c)
          if (s.inputsReadMs !== undefined)
            console.log(`  [${s.server}] inputs read in ${s.inputsReadMs.toFixed(0)} ms`)
        })
        const probed = await p.stop()
        loop.disable()
        clearInterval(ticker)
        for (const s of services) await s.close()
        await Promise.all(
          children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.on('exit', r)))),
        )
        const others = [...childCpu.values()].reduce((a, b) => a + b, 0)
        const fps = ignitions / (ms / 1000)
        console.log(
          `status ${run.status}${run.error ? ` (${run.error})` : ''}: ${ignitions} fires in ${(ms / 1000).toFixed(1)} s wall, ${fps.toFixed(1)} fires/s; ` +
            `CPU ${(cpu + others).toFixed(1)} s (this server ${cpu.toFixed(1)} s${children.length ? `, others ${[...childCpu].map(([k, v]) => `${k} ${v.toFixed(1)} s`).join(', ')}` : ''}), ${(((cpu + others) / ignitions) * 1000).toFixed(2)} ms CPU per fire` +
            (pgCpu !== undefined
              ? `; PostgreSQL ${pgCpu.toFixed(1)} s CPU (${((pgCpu / (ms / 1000)) * 100).toFixed(0)} % of a core)`
              : '') +
            `; load ${os.loadavg()[0]!.toFixed(1)}`,
        )
        const serverCpu = new Map<string, number>([[services[0]!.server, cpu], ...childCpu])
        if (inProcess) serverCpu.clear() // one process: its CPU is every in-process server's
        for (const s of run.servers) {
          const c = caches.get(s.server)
          const rate = (hit: number, miss: number) =>
            `${((hit / Math.max(1, hit + miss)) * 100).toFixed(1)} % (${miss} computed)`
          const cpuOf = serverCpu.get(s.server)
          console.log(
            `  ${s.server}: ${s.done} batches, ${(s.batchMs / 1000).toFixed(1)} s of batch time` +
              (cpuOf !== undefined ? `, CPU ${cpuOf.toFixed(1)} s` : '') +
              (c
                ? `; block hit rate ${rate(c.hits, c.misses)}, fuels/terrain blocks ${rate(c.landHits, c.landMisses)}`
                : ''),
          )
        }
        figures = { fps: ignitions / (ms / 1000), cpu: serverCpu }
        report('during the run', probed)
        console.log(
          `  event-loop delay during the run: p99 ${(loop.percentile(99) / 1e6).toFixed(1)} ms, max ${(loop.max / 1e6).toFixed(1)} ms; stalls over 250 ms (time into the run: length): ${stalls.join(', ') || 'none'}`,
        )
        break
      }
      await new Promise((r) => setTimeout(r, 200))
    }
    return figures
  }

  if (machines) {
    // Two machines of one core each, emulated: this server on core 0, the second on core 1.
    pinSelf(0)
    // `--rounds N`: N pairs of runs in ABBA order (1-2, 2-1, 1-2 …), so a drift of this host's
    // speed over the minutes weighs on both alike; the ratio is of the medians. `--two-first`
    // starts with the two-server run.
    const rounds = Math.max(1, Number(arg('rounds') ?? 1))
    const twoFirst = process.argv.includes('--two-first')
    const ones: RunFigures[] = []
    const twos: RunFigures[] = []
    const median = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b)
      const m = s.length >> 1
      return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
    }
    const cpuOf = (f: RunFigures) => [...f.cpu.values()].reduce((a, b) => a + b, 0)
    const busier = (f: RunFigures) => Math.max(...f.cpu.values())
    for (let r = 0; r < rounds; r++) {
      const order = (r % 2 === 1) !== twoFirst ? [2, 1] : [1, 2]
      for (const n of order) (n === 1 ? ones : twos).push(await runWith(n, true))
      const [one, two] = [ones.at(-1)!, twos.at(-1)!]
      console.log(
        `machines${rounds > 1 ? ` (round ${r + 1}, ${order.join(' then ')} server(s))` : ''}: 1 server ${one.fps.toFixed(1)} fires/s, 2 servers ${two.fps.toFixed(1)} fires/s: ${(two.fps / one.fps).toFixed(2)}x`,
      )
      // By CPU: the lone server's CPU against the busier of the two (what the wall ratio would be if
      // each server had its core to itself), and the CPU of both against the lone one's.
      const both = [...two.cpu.values()]
      console.log(
        `machines by CPU: 1 server ${cpuOf(one).toFixed(1)} s, 2 servers ${both.map((c) => c.toFixed(1)).join(' + ')} s: ` +
          `${(cpuOf(one) / busier(two)).toFixed(2)}x (the busier server's CPU), ${(cpuOf(two) / cpuOf(one)).toFixed(2)}x the CPU in all; load ${os
            .loadavg()
            .map((l) => l.toFixed(1))
            .join(' ')}`,
      )
    }
    if (rounds > 1) {
      const [f1, f2] = [median(ones.map((f) => f.fps)), median(twos.map((f) => f.fps))]
      console.log(
        `machines, median of ${rounds} rounds: 1 server ${f1.toFixed(1)} fires/s, 2 servers ${f2.toFixed(1)} fires/s: ${(f2 / f1).toFixed(2)}x ` +
          `(rounds ${ones.map((o, k) => (twos[k]!.fps / o.fps).toFixed(2)).join(', ')}); by CPU ` +
          `${(median(ones.map(cpuOf)) / median(twos.map(busier))).toFixed(2)}x`,
      )
    }
  } else await runWith(servers, false)

  await app.close()
  await store.close()
  for (const s of extraStores) await s.close()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

main().catch((e: unknown) => {
  console.error(e)
  process.exit(1)
})
