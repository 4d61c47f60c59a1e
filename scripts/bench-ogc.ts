// npm run bench:ogc [-- --buildings N] [--data-dir DIR] [--pages N] [--page-size N]
// Starts the data server (scripts/bench/benchServer.ts) in its own process over a seeded store and
// measures, over HTTP on 127.0.0.1 with a keep-alive client: OGC API items pages of buildings at
// random offsets (plain and bbox-limited), then a full `ogr2ogr` copy of the buildings collection
// to a GeoPackage (GDAL OAPIF driver, PAGE_SIZE=10000) and a GeoPackage export. Prints figures.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { seedDemo } from '../src/demo/seedDemo'
import { defaultCatalog } from '../src/server/store/catalog'
import { openStore } from '../src/server/store/sqliteStore'
import { featureJson } from '../src/server/ogc/featureJson'
import { queryItems } from '../src/server/ogc/queryItems'
import { summarize } from './bench/stats'

const run = promisify(execFile)
const argv = process.argv.slice(2)
const arg = (k: string, d: string): string => {
  const i = argv.indexOf(`--${k}`)
  return i >= 0 ? (argv[i + 1] ?? d) : d
}
const root = path.resolve(import.meta.dirname, '..')
const token = 'bench-token'
const pages = Number(arg('pages', '200'))
const pageSize = Number(arg('page-size', '1000'))
let dataDir = arg('data-dir', '')
const own = !dataDir

if (!dataDir) {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-ogc-'))
  const buildings = Number(arg('buildings', '200000'))
  const t = performance.now()
  const store = openStore(dataDir, defaultCatalog())
  await seedDemo(store, { buildings, steps: [] })
  store.close()
  console.log(`seed: ${buildings} buildings in ${((performance.now() - t) / 1000).toFixed(1)} s (${dataDir})`)
}

function startServer(): Promise<{ child: ChildProcess; port: number; warm: Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/benchServer.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, BENCH_TOKEN: token },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let buf = ''
    let warmDone: () => void = () => undefined
    const warm = new Promise<void>((r) => (warmDone = r))
    child.stdout?.on('data', (chunk: Buffer) => {
      buf += chunk.toString()
      if (/warm (\d+)/.test(buf)) warmDone()
      const l = /listening (\d+)/.exec(buf)
      if (l) resolve({ child, port: Number(l[1]), warm })
    })
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)))
  })
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
function get(url: string): Promise<{ status: number; ms: number; body: string; bytes: number }> {
  return new Promise((resolve, reject) => {
    const t = performance.now()
    http
      .get(url, { agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const all = Buffer.concat(chunks)
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - t,
            body: all.toString(),
            bytes: all.length,
          })
        })
      })
      .on('error', reject)
  })
}

/** A deterministic pseudo-random sequence (benchmarks repeat). */
function lcg(seed: number): () => number {
  let s = seed
  return () => {
    s = (s * 1664525 + 1013904223) % 2 ** 32
    return s / 2 ** 32
  }
}

async function pagesOf(label: string, urls: string[]): Promise<void> {
  const ms: number[] = []
  let returned = 0
  for (const url of urls) {
    const res = await get(url)
    if (res.status !== 200) throw new Error(`${url} → ${res.status} ${res.body.slice(0, 200)}`)
    ms.push(res.ms)
    returned += Number(/"numberReturned":(\d+)/.exec(res.body)?.[1] ?? 0)
  }
  const s = summarize(ms)
  console.log(
    `${label}: ${s.n} requests, ${Math.round(returned / s.n)} features each: p50 ${s.p50} ms, p95 ${s.p95} ms, max ${s.max} ms`,
  )
}

const { child, port, warm } = await startServer()
try {
  await warm
  const base = `http://127.0.0.1:${port}`
  const meta = JSON.parse((await get(`${base}/ogc/collections/buildings`)).body) as {
    extent: { spatial: { bbox: number[][] } }
  }
  const total = (
    JSON.parse((await get(`${base}/ogc/collections/buildings/items?limit=1`)).body) as {
      numberMatched: number
    }
  ).numberMatched
  console.log(`buildings: ${total}`)
  const rnd = lcg(20)
  const offsets = Array.from({ length: pages }, () => Math.floor(rnd() * Math.max(1, total - pageSize)))
  // Warm-up (first requests build the per-dataset extents and fill SQLite's cache).
  for (const o of offsets.slice(0, 5))
    await get(`${base}/ogc/collections/buildings/items?limit=${pageSize}&offset=${o}`)
  await pagesOf(
    `items pages of ${pageSize}`,
    offsets.map((o) => `${base}/ogc/collections/buildings/items?limit=${pageSize}&offset=${o}`),
  )
  const [x0, y0, x1, y1] = meta.extent.spatial.bbox[0] as [number, number, number, number]
  const boxes = Array.from({ length: pages }, () => {
    const w = (x1 - x0) / 4
    const h = (y1 - y0) / 4
    const x = x0 + rnd() * (x1 - x0 - w)
    const y = y0 + rnd() * (y1 - y0 - h)
    return [x, y, x + w, y + h].map((v) => v.toFixed(5)).join(',')
  })
  await pagesOf(
    `bbox-limited items pages of ${pageSize}`,
    boxes.map((b) => `${base}/ogc/collections/buildings/items?limit=${pageSize}&bbox=${b}`),
  )

  // The server's own work per page (query + GeoJSON text), in this process on the same store:
  // the CPU a request costs, apart from HTTP and from other processes' load.
  {
    const store = openStore(dataDir, defaultCatalog())
    await store.warm()
    const reader = store.ogc
    const d = store.dataset('buildings')
    if (!d) throw new Error('no buildings dataset')
    const work: number[] = []
    for (const [i, o] of offsets.entries()) {
      const t0 = performance.now()
      const bbox = boxes[i]?.split(',').map(Number) as [number, number, number, number] | undefined
      const page = await queryItems(store, reader, d, {
        filter: { filters: [], textTests: [] },
        limit: pageSize,
        offset: o,
      })
      JSON.stringify(page.rows.map((r) => featureJson(r, d.geometry)))
      const t1 = performance.now()
      const boxed = await queryItems(store, reader, d, {
        filter: { filters: [], textTests: [] },
        bbox,
        limit: pageSize,
        offset: 0,
      })
      JSON.stringify(boxed.rows.map((r) => featureJson(r, d.geometry)))
      work.push(t1 - t0, performance.now() - t1)
    }
    const plain = summarize(work.filter((_, i) => i % 2 === 0))
    const boxedS = summarize(work.filter((_, i) => i % 2 === 1))
    console.log(
      `server work per page of ${pageSize} (in process, query + GeoJSON text): p50 ${plain.p50} ms, p95 ${plain.p95} ms; bbox p50 ${boxedS.p50} ms, p95 ${boxedS.p95} ms`,
    )
    store.close()
  }

  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-ogr-'))
  const env = { ...process.env, GDAL_HTTP_HEADERS: `Authorization: Bearer ${token}` }
  let t = performance.now()
  await run(
    'ogr2ogr',
    [
      '-f',
      'GPKG',
      path.join(out, 'buildings.gpkg'),
      `OAPIF:${base}/ogc`,
      'buildings',
      '-oo',
      'PAGE_SIZE=10000',
    ],
    { env, timeout: 600_000 },
  )
  const ogrMs = performance.now() - t
  const info = (await run('ogrinfo', ['-ro', '-so', path.join(out, 'buildings.gpkg'), 'buildings'], { env }))
    .stdout
  const copied = Number(/Feature Count: (\d+)/.exec(info)?.[1] ?? NaN)
  console.log(`ogr2ogr OAPIF → GPKG (PAGE_SIZE=10000): ${copied} buildings in ${(ogrMs / 1000).toFixed(1)} s`)
  if (copied !== total) throw new Error(`ogr2ogr copied ${copied} of ${total}`)

  t = performance.now()
  const gpkg = await get(`${base}/api/export/buildings?format=gpkg`)
  console.log(
    `export GeoPackage of all buildings: ${(gpkg.bytes / 1e6).toFixed(1)} MB in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  )
  fs.rmSync(out, { recursive: true, force: true })
} finally {
  child.kill('SIGTERM')
  agent.destroy()
  if (own) fs.rmSync(dataDir, { recursive: true, force: true })
}
