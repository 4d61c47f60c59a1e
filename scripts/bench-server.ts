// npm run bench:server [-- --buildings N] [--data-dir DIR --config DIR] [--layers a,b] [--conc 1,2] [--records N] [--warmup N]
// Starts the data server (scripts/bench/benchServer.ts) in its own process over a seeded store
// and measures, over HTTP with keep-alive clients: startup with an existing store, tiles cold
// (first request of each tile after start) and repeated, records page + total, RSS. Prints figures.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { layersConfig } from '../src/shared/config'
import { newMexico } from '../src/demo/geography'
import { seedDemo } from '../src/demo/seedDemo'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { saveTileData } from '../src/server/tiles/saveTileData'
import { summarize } from './bench/stats'
import { benchTiles, type BenchTile } from './bench/tileList'

const argv = process.argv.slice(2)
const arg = (k: string, d: string): string => {
  const i = argv.indexOf(`--${k}`)
  return i >= 0 ? (argv[i + 1] ?? d) : d
}
const root = path.resolve(import.meta.dirname, '..')
const token = 'bench-token'
const configDir = arg('config', '')
const layers = arg(
  'layers',
  configDir
    ? 'buildings,lines,points'
    : 'buildings,demo/asset_data/distribution_lines,critical_infrastructure',
).split(',')
const concs = arg('conc', '1,2').split(',').map(Number)
const recordsN = Number(arg('records', '300'))
const warmup = Number(arg('warmup', '3000'))
let dataDir = arg('data-dir', '')

if (!dataDir) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-'))
  const buildings = Number(arg('buildings', '200000'))
  const t = performance.now()
  const store = openStore(dataDir, defaultCatalog())
  seedDemo(store, { buildings, steps: [] })
  // As `npm run seed` does: tile data and the small sources' tile archives, written once.
  for (const d of store.catalog.datasets) saveTileData(store, d.id)
  store.close()
  console.log(`seed: ${buildings} buildings in ${((performance.now() - t) / 1000).toFixed(1)} s (${dataDir})`)
}

function startServer(): Promise<{
  child: ChildProcess
  port: number
  startupMs: number
  warm: Promise<number>
}> {
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    BENCH_TOKEN: token,
    ...(configDir ? { CONFIG_DIR: configDir, DEMO: 'off' } : {}),
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/benchServer.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let buf = ''
    let warmDone: (ms: number) => void = () => undefined
    const warm = new Promise<number>((r) => (warmDone = r))
    child.stdout?.on('data', (chunk: Buffer) => {
      buf += chunk.toString()
      const l = /listening (\d+) (\d+)/.exec(buf)
      const w = /warm (\d+)/.exec(buf)
      if (w) warmDone(Number(w[1]))
      if (l) resolve({ child, port: Number(l[1]), startupMs: Number(l[2]), warm })
    })
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)))
  })
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
function get(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number; ms: number; features: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now()
    http
      .get(url, { agent, headers: { authorization: `Bearer ${token}`, ...headers } }, (res) => {
        let bytes = 0
        res.on('data', (c: Buffer) => (bytes += c.length))
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            ms: performance.now() - t,
            features: Number(res.headers['x-tile-features'] ?? 0),
          }),
        )
      })
      .on('error', reject)
  })
}

async function runAll(urls: string[], conc: number, headers: Record<string, string> = {}) {
  const out: Awaited<ReturnType<typeof get>>[] = new Array(urls.length)
  let next = 0
  const t = performance.now()
  await Promise.all(
    Array.from({ length: conc }, async () => {
      for (;;) {
        const i = next++
        if (i >= urls.length) return
        out[i] = await get(urls[i] as string, headers)
      }
    }),
  )
  return { wallMs: performance.now() - t, out }
}

const geo = newMexico()
const tiles: BenchTile[] = benchTiles(geo.bbox, geo.places)
const rows: string[] = []
const gz = { 'accept-encoding': 'gzip' }

for (const conc of concs) {
  const server = await startServer()
  const base = `http://127.0.0.1:${server.port}`
  rows.push(`startup (existing store, open + buildApp + listen): ${server.startupMs} ms`)
  // Warm this client's HTTP code (Node's http client runs unoptimised for its first few thousand
  // requests and would otherwise dominate the figures) on the health endpoint: no tile is touched.
  await runAll(
    Array.from({ length: warmup }, () => `${base}/api/health`),
    2,
  )
  for (const layer of layers) {
    // Only the zooms the layer's source serves (a request beyond its maxzoom is a client error).
    const source = layersConfig.sources.find(
      (src) => src.type === 'mvt' && (src.path === layer || src.demoPath === layer),
    )
    const inRange = tiles.filter(
      (t) => !source || source.type !== 'mvt' || (t.z >= source.minzoom && t.z <= source.maxzoom),
    )
    if (inRange.length < tiles.length)
      rows.push(`${layer}: ${tiles.length - inRange.length} tiles outside the source's zooms skipped`)
    const urls = inRange.map((t) => `${base}/api/tiles/${layer}/mvt/${t.z}/${t.x}/${t.y}`)
    const cold = await runAll(urls, conc, gz)
    const warm = await runAll(urls, conc, gz)
    const bad = cold.out.filter((r) => r.status !== 200 && r.status !== 204).length
    for (const [name, pass] of [
      ['cold', cold],
      ['repeat', warm],
    ] as const) {
      const per = (set: string) =>
        summarize(pass.out.filter((_, i) => tiles[i]?.set === set).map((r) => r.ms))
      const a = per('z6-8')
      const b = per('z10-14')
      rows.push(
        `${layer} c${conc} ${name}: ${(urls.length / (pass.wallMs / 1000)).toFixed(1)} tiles/s; z6-8 p50/p95/max ${a.p50}/${a.p95}/${a.max} ms; z10-14 p50/p95/max ${b.p50}/${b.p95}/${b.max} ms` +
          (name === 'cold'
            ? `; max gzip ${(Math.max(...pass.out.map((r) => r.bytes)) / 1024).toFixed(0)} KiB; max features ${Math.max(...pass.out.map((r) => r.features))}; >500 KB: ${pass.out.filter((r) => r.bytes > 500_000).length}; errors ${bad}`
            : ''),
      )
    }
  }
  await server.warm
  const recordUrls = recordsUrls(base, recordsN)
  if (recordUrls.length) {
    await runAll(recordUrls.slice(0, 20), 1)
    const rec = await runAll(recordUrls, conc)
    const s = summarize(rec.out.map((r) => r.ms))
    rows.push(
      `records c${conc} (page + total): p50/p95/max ${s.p50}/${s.p95}/${s.max} ms; ${(recordUrls.length / (rec.wallMs / 1000)).toFixed(0)} req/s; errors ${rec.out.filter((r) => r.status !== 200).length}`,
    )
  }
  const rss = fs.readFileSync(`/proc/${server.child.pid}/status`, 'utf8').match(/VmRSS:\s+(\d+)/)?.[1]
  rows.push(`server RSS after c${conc}: ${rss ? (Number(rss) / 1024).toFixed(0) : '?'} MiB`)
  server.child.kill('SIGTERM')
  await new Promise((r) => server.child.once('exit', r))
}
agent.destroy()

function recordsUrls(base: string, n: number): string[] {
  const catalog = configDir ? null : defaultCatalog()
  const q = (f: object[]) => f.map((x) => `filters=${encodeURIComponent(JSON.stringify(x))}`).join('&')
  const out: string[] = []
  let r = 7
  const rand = () => (r = (r * 16807) % 2147483647) / 2147483647
  for (let i = 0; i < n; i++) {
    if (!catalog) {
      const towns = [
        'Albuquerque',
        'Las Cruces',
        'Rio Rancho',
        'Santa Fe',
        'Roswell',
        'Farmington',
        'Hobbs',
        'Clovis',
        'Carlsbad',
        'Alamogordo',
        'Unincorporated',
      ]
      const f =
        rand() < 0.5
          ? [
              { field: 'town', value: towns[Math.floor(rand() * towns.length)] },
              { field: 'risk_score', value: [0, 20, 40, 60][Math.floor(rand() * 4)], type: 'gt' },
            ]
          : [
              {
                field: 'occupancy',
                value: ['residential', 'commercial', 'industrial'][Math.floor(rand() * 3)],
              },
              { field: 'year_built', value: [1950, 1980, 2000][Math.floor(rand() * 3)], type: 'gt' },
            ]
      out.push(`${base}/api/data/buildings/records?${q(f)}&limit=100&offset=5000`)
    } else {
      const f =
        rand() < 0.5
          ? [{ field: 'customers_impacted', value: Math.floor(rand() * 1000), type: 'gt' }]
          : [{ field: 'spread_potential', value: 'high' }]
      out.push(`${base}/api/data/public_safety_power_shutoff/records?${q(f)}&limit=100`)
      out.push(`${base}/api/data/buildings/records?limit=100&offset=${Math.floor(rand() * 1000) * 100}`)
    }
  }
  return out.slice(0, n)
}

console.log(
  `\nEmberline data server benchmark — ${os.cpus().length} cores, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
console.log(
  `tiles: ${tiles.length} (${tiles.filter((t) => t.set === 'z6-8').length} z6-8 + ${tiles.filter((t) => t.set === 'z10-14').length} z10-14), gzip accepted`,
)
for (const r of rows) console.log(r)
