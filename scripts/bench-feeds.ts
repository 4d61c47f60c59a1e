/**
 * Feeds benchmark: `npm run bench:feeds [-- --rows 100000 --runs 3 --cycles 20 --inline | --no-file]`.
 *
 * 1. A FIRMS CSV of `--rows` rows (the real samples' rows repeated with jittered coordinates inside
 *    the territory and re-dated to the last 24 h) imported through the firms-viirs feed into a
 *    store holding the demo lines, then the dataset's tile data + tile archives rebuilt (the work
 *    the tile worker does after an update) and the alert rules re-evaluated. Target ≤ 3 s. The
 *    import runs as the server's poller runs it, in a worker thread (`--inline`: in this thread, as
 *    the CLI does; `--no-file`: through a store without a file that answers promises, as PostgreSQL —
 *    the worker parses and maps, this thread writes); the longest event-loop stall during it is
 *    measured (perf_hooks).
 * 2. A poll cycle of every feed of config/feeds.yaml (13) against a local server on 127.0.0.1 (a
 *    child process) that answers 304 to each conditional GET: server CPU per cycle (user + system
 *    of this process). Target ≤ 200 ms.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { feedsConfig, type FeedsConfig, operationsConfig } from '../src/shared/config'
import { AlertsEngine } from '../src/server/alerts/AlertsEngine'
import { buildApp } from '../src/server/app'
import { seedDemo } from '../src/demo/seedDemo'
import { importFeedInWorker } from '../src/server/feeds/importFeedInWorker'
import { runFeed } from '../src/server/feeds/runFeed'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { promisedStore } from '../src/server/store/testing/promisedStore'
import { saveTileData } from '../src/server/tiles/saveTileData'
import { startWorker } from '../src/server/tiles/startWorker'
import { serverSettings } from '../src/server/appSettings'
import { summarize } from './bench/stats'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const ROWS = arg('--rows', 100_000)
const RUNS = arg('--runs', 3)
const CYCLES = arg('--cycles', 20)
const INLINE = process.argv.includes('--inline')
const NO_FILE = process.argv.includes('--no-file')
const FIX = path.resolve(import.meta.dirname, '../tests/fixtures/feeds')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-feeds-'))
const NOW = Date.now()

/** Deterministic jitter (mulberry32). */
function prng(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function bigFirmsCsv(file: string): void {
  const source = fs
    .readFileSync(path.join(FIX, 'viirs_snpp_conus_7d_2025-11-05_nm.csv'), 'utf8')
    .trim()
    .split('\n')
  const header = source[0] as string
  const rows = source.slice(1).map((l) => l.split(','))
  const [w, s, e, n] = feedsConfig.territory.bbox as [number, number, number, number]
  const rnd = prng(16)
  const pad = (v: number) => String(v).padStart(2, '0')
  const out = [header]
  for (let i = 0; i < ROWS; i++) {
    const r = [...(rows[i % rows.length] as string[])]
    r[0] = (s + rnd() * (n - s)).toFixed(5)
    r[1] = (w + rnd() * (e - w)).toFixed(5)
    const t = new Date(NOW - Math.floor(rnd() * 24 * 60) * 60_000)
    r[5] = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`
    r[6] = `${pad(t.getUTCHours())}${pad(t.getUTCMinutes())}`
    out.push(r.join(','))
  }
  fs.writeFileSync(file, out.join('\n') + '\n')
}

async function importBench(): Promise<void> {
  const csv = path.join(work, 'firms-100k.csv')
  bigFirmsCsv(csv)
  const feed = feedsConfig.feeds.find((f) => f.id === 'firms-viirs')
  if (!feed) throw new Error('firms-viirs is not configured')
  const phases = ['import', 'tiles', 'alerts', 'total'] as const
  const wall = Object.fromEntries(phases.map((p) => [p, [] as number[]])) as Record<
    (typeof phases)[number],
    number[]
  >
  const cpu = Object.fromEntries(phases.map((p) => [p, [] as number[]])) as Record<
    (typeof phases)[number],
    number[]
  >
  const cpuNow = () => {
    const c = process.cpuUsage()
    return (c.user + c.system) / 1000
  }
  const concurrent: number[] = []
  const stalls: number[] = []
  let stored = 0
  let alerts = 0
  for (let run = 0; run < RUNS; run++) {
    const dir = fs.mkdtempSync(path.join(work, 'store-'))
    const store = openStore(dir, defaultCatalog())
    await seedDemo(store, { buildings: 500, steps: [] })
    const engine = new AlertsEngine(store, operationsConfig.alerts, () => NOW)
    await engine.evaluate()
    const loop = monitorEventLoopDelay({ resolution: 10 })
    loop.enable()
    // The histogram records from its second sample on: let it take one before the import starts.
    await new Promise((resolve) => setTimeout(resolve, 30))
    const t = [performance.now()]
    const c = [cpuNow()]
    const r = await runFeed(
      { store: NO_FILE ? promisedStore(store) : store, config: feedsConfig, now: NOW },
      feed,
      {
        file: csv,
        importer: INLINE ? undefined : importFeedInWorker,
      },
    )
    t.push(performance.now())
    c.push(cpuNow())
    // One more turn of the loop (not timed), so a stall that ended with the import is recorded.
    await new Promise((resolve) => setTimeout(resolve, 30))
    loop.disable()
    stalls.push(loop.max / 1e6)
    if (!r.ok) throw new Error(r.error)
    await saveTileData(store, feed.dataset)
    t.push(performance.now())
    c.push(cpuNow())
    alerts = (await engine.evaluate()).alerts.length
    t.push(performance.now())
    c.push(cpuNow())
    // As the server does after an update: tile data + archives in a worker thread while the main
    // thread re-evaluates the alerts (a fresh engine, so it decodes the new data again).
    const worker = startWorker('tileArchiveWorker', {
      file: store.location,
      catalog: store.catalog,
      datasetId: feed.dataset,
      limits: serverSettings().tiles,
    })
    const tilesDone = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve())
      worker.once('error', reject)
    })
    const t4 = performance.now()
    await new AlertsEngine(store, operationsConfig.alerts, () => NOW).evaluate()
    await tilesDone
    await worker.terminate()
    concurrent.push(performance.now() - t4 + (t[1] as number) - (t[0] as number))
    stored = r.summary.stored
    phases.forEach((p, i) => {
      const [from, to] = p === 'total' ? [0, 3] : [i, i + 1]
      wall[p].push((t[to] as number) - (t[from] as number))
      cpu[p].push((c[to] as number) - (c[from] as number))
    })
    store.close()
  }
  const s = (xs: number[]) => (summarize(xs).p50 / 1000).toFixed(2)
  console.log(
    `1. ${ROWS.toLocaleString('en-US')}-row FIRMS CSV through firms-viirs (${stored} stored, ${alerts} alerts), ${RUNS} runs, medians`,
  )
  const label = {
    import: `import ${INLINE ? 'in this thread' : NO_FILE ? 'mapped in a worker, written here' : 'in a worker'} (parse, map, replace, freshness)`,
    tiles: 'tile data + tile archives rebuilt',
    alerts: 'alert rules re-evaluated',
    total: 'total (target ≤ 3 s)',
  }
  for (const p of phases) console.log(`  ${label[p].padEnd(48)} wall ${s(wall[p])} s   CPU ${s(cpu[p])} s`)
  console.log(
    `  ${'import, then tiles (worker) beside alerts'.padEnd(48)} wall ${s(concurrent)} s   (as the server does)`,
  )
  console.log(
    `  ${'longest event-loop stall during the import'.padEnd(48)} median ${summarize(stalls).p50.toFixed(0)} ms   max ${Math.max(...stalls).toFixed(0)} ms`,
  )
  console.log(
    '  (wall includes waiting for a core on a shared machine; CPU = user + system of this process, all threads)',
  )
}

/** The local stand-in for the 13 services: each path serves a fixture with an ETag, 304 when the client has it. */
const SERVER = `
const http = require('node:http'), fs = require('node:fs'), crypto = require('node:crypto')
const files = JSON.parse(process.argv[1])
const server = http.createServer((req, res) => {
  const file = files[req.url.split('?')[0]]
  if (!file) { res.writeHead(404); return res.end() }
  const body = fs.readFileSync(file)
  const etag = '"' + crypto.createHash('sha1').update(body).digest('hex') + '"'
  if (req.headers['if-none-match'] === etag) { res.writeHead(304, { ETag: etag }); return res.end() }
  res.writeHead(200, { ETag: etag }); res.end(body)
})
server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'))
`

/** A real (or, where none exists, synthetic) sample per shipped feed. */
const FIXTURE_OF: Record<string, string> = {
  'firms-viirs': 'viirs_snpp_conus_7d_2025-11-05_nm.csv',
  'firms-viirs-noaa20': 'viirs_noaa20_conus_7d_2020-10-03_west.csv',
  'firms-viirs-noaa21': 'viirs_snpp_conus_7d_2025-11-05_nm.csv',
  'firms-modis': 'modis_c61_conus_7d_2025-04-28_west.csv',
  'wfigs-incidents': 'wfigs_incident_locations_current_2026-07-30_florida.geojson',
  'wfigs-perimeters': 'synthetic/wfigs_perimeters_SYNTHETIC.geojson',
  'nws-fire-weather': 'synthetic/nws_fire_weather_nm_SYNTHETIC.json',
  'synoptic-raws': 'synoptic_timeseries_idaho_2026-01-23.json',
  'mesowest-raws': 'mesowest_raws_csv_BNDC1_2023-04-11.csv',
  'nifc-historic': 'geomac_carr_2018-07-23-2002.geojson',
  'hifld-infrastructure': 'hifld_fire_stations_ca_2022-10-01_desert_subset.geojson',
  'hifld-cell-towers': 'hifld_cellular_towers_ca_2022-10-01_desert_subset.geojson',
  'hms-smoke': 'hms_smoke20261006_trimmed.kml',
}

async function pollBench(): Promise<void> {
  const files: Record<string, string> = {}
  for (const f of feedsConfig.feeds) {
    const name = FIXTURE_OF[f.id]
    if (!name) throw new Error(`no sample for feed ${f.id}`)
    files[`/${f.id}`] = path.join(FIX, name)
  }
  const child = spawn(process.execPath, ['-e', SERVER, JSON.stringify(files)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const port = await new Promise<number>((resolve) =>
    child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim()))),
  )
  const config: FeedsConfig = {
    ...feedsConfig,
    defaults: { ...feedsConfig.defaults, retries: 0 },
    feeds: feedsConfig.feeds.map((f) => ({
      ...f,
      enabled: true,
      filter: { ...f.filter, bbox: 'none' },
      source: { url: `http://127.0.0.1:${port}/${f.id}?bbox=\${bbox}` },
    })),
  }
  const dir = fs.mkdtempSync(path.join(work, 'poll-'))
  const store = openStore(dir, defaultCatalog())
  const app = await buildApp({
    dataDir: dir,
    demo: false,
    store,
    feeds: { config, schedule: false, now: () => NOW },
  })
  try {
    const first = await app.feeds.pollOnce()
    const failed = first.filter((r) => !r.ok)
    if (failed.length > 0)
      throw new Error(`priming failed: ${failed.map((r) => (r.ok ? '' : r.error)).join('; ')}`)
    const cpu: number[] = []
    const wall: number[] = []
    for (let i = 0; i < CYCLES; i++) {
      const c0 = process.cpuUsage()
      const t0 = performance.now()
      const results = await app.feeds.pollOnce()
      wall.push(performance.now() - t0)
      const c = process.cpuUsage(c0)
      cpu.push((c.user + c.system) / 1000)
      if (results.some((r) => !r.ok || r.changed)) throw new Error('a feed changed during the 304 cycles')
    }
    const s = summarize(cpu)
    const w = summarize(wall)
    console.log(`2. poll cycle of ${config.feeds.length} feeds, every answer 304, ${CYCLES} cycles`)
    console.log(
      `  server CPU per cycle (target ≤ 200 ms)           median ${s.p50} ms  p95 ${s.p95} ms  max ${s.max} ms`,
    )
    console.log(`  wall time per cycle                              median ${w.p50} ms  p95 ${w.p95} ms`)
  } finally {
    await app.close()
    store.close()
    child.kill()
  }
}

try {
  await importBench()
  await pollBench()
  console.log(
    `load average: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} (${os.cpus().length} cores)`,
  )
} finally {
  fs.rmSync(work, { recursive: true, force: true })
}
