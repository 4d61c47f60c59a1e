// npx tsx scripts/bench-render-memory.ts --database-url URL [--dataset buildings] [--render blocks|whole|both]
//                                        [--block-features N] [--lines N]
// The memory of the leader's render of a shared tile archive (PostgreSQL mode, docs/adr/0003
// "Memory"): re-renders the current version's set of every source of the dataset in this process,
// as the leader does (in slices between turns of the event loop, tiles written in batches), and
// prints the process's peak RSS (VmHWM, and sampled every 100 ms), the render's wall and CPU time,
// the blocks and pieces read and the load average. `--render blocks` (the default) renders by
// blocks and pieces (tiles too dense for a block rendered on their own from their largest
// features); `--render whole` renders from the whole dataset's tile data (the render before
// blocks) for comparison; `--render both` runs each in a process of its own and prints them side
// by side. `--block-features` sets the blocks' budget (ARCHIVE_POLICY.blockFeatures). The set is
// rewritten with the same tiles.
// `--lines N`: instead of the database's own data, N synthetic distribution-line segments (a
// line dataset under the default policy: no zoom aggregated, thinned to z13) in a database of
// their own on the cluster of URL (`eb_bench_lines_<N>`, loaded once).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import { createRng } from '../src/demo/prng'
import { defaultCatalog, type Catalog } from '../src/server/store/catalog'
import { openPgStore } from '../src/server/store/pg/pgStore'
import type { FeatureInput } from '../src/server/store/Store'
import { serverSettings } from '../src/server/appSettings'
import { SharedArchives, storeRenderData } from '../src/server/tiles/sharedArchives'
import { ARCHIVE_POLICY } from '../src/server/tiles/tilePolicy'
import { benchDatabase } from './bench/benchDatabase'

const argv = process.argv.slice(2)
const arg = (k: string, d: string): string => {
  const i = argv.indexOf(`--${k}`)
  return i >= 0 ? (argv[i + 1] ?? d) : d
}
const given = arg('database-url', process.env.DATABASE_URL ?? '')
if (!given) throw new Error('--database-url (or DATABASE_URL) is required')
const lineCount = Number(arg('lines', '0'))
const mode = arg('render', 'blocks')
if (mode !== 'blocks' && mode !== 'whole' && mode !== 'both')
  throw new Error('--render is blocks, whole or both')
ARCHIVE_POLICY.blockFeatures = Number(arg('block-features', String(ARCHIVE_POLICY.blockFeatures)))

/** The synthetic line dataset of `--lines`: the catalog holds only it. */
const LINES_CATALOG: Catalog = {
  datasets: [
    {
      id: 'bench_lines',
      geometry: 'line',
      fields: [
        { name: 'circuit', type: 'string' },
        { name: 'kv', type: 'number' },
      ],
    },
  ],
  tables: [],
  sources: [{ id: 'bench_lines_mvt', path: 'bench_lines', dataset: 'bench_lines', minzoom: 0, maxzoom: 16 }],
}

/**
 * N segments of a distribution network over New Mexico's box: 400 towns of very different sizes
 * (a few dense cities, many villages), each segment 2–4 vertices of 20–300 m around its town,
 * 1 in 100 a feeder of 2–10 km.
 */
function* syntheticLines(n: number): Generator<FeatureInput> {
  const rng = createRng(34, 'bench-lines')
  const towns = Array.from({ length: 400 }, () => ({
    lon: rng.range(-108.8, -103.2),
    lat: rng.range(31.5, 36.8),
    weight: rng() ** 4,
    spread: 0.01 + 0.1 * rng() ** 2,
  }))
  const total = towns.reduce((s, t) => s + t.weight, 0)
  let k = 0
  for (const [i, t] of towns.entries()) {
    const m = i === towns.length - 1 ? n - k : Math.round((n * t.weight) / total)
    for (let j = 0; j < m && k < n; j++, k++) {
      const feeder = rng() < 0.01
      let lon = t.lon + rng.normal(0, t.spread)
      let lat = t.lat + rng.normal(0, t.spread * 0.8)
      const coordinates: [number, number][] = [[lon, lat]]
      const steps = rng.int(1, 3)
      const len = (feeder ? rng.range(2000, 10_000) : rng.range(20, 300)) / 111_000 / steps
      const heading = rng.range(0, 2 * Math.PI)
      for (let s = 0; s < steps; s++) {
        lon += len * Math.cos(heading + rng.normal(0, 0.3))
        lat += len * Math.sin(heading + rng.normal(0, 0.3))
        coordinates.push([lon, lat])
      }
      yield {
        geometry: { type: 'LineString', coordinates },
        properties: { circuit: `c${i}-${j % 40}`, kv: feeder ? 69 : 12.47 },
      }
    }
  }
}

let url = given
let datasetId = arg('dataset', 'buildings')
let catalog = defaultCatalog()
let note = ''
if (lineCount > 0) {
  catalog = LINES_CATALOG
  datasetId = 'bench_lines'
  const db = await benchDatabase({
    url: given,
    name: `eb_bench_lines_${lineCount}`,
    stamp: `lines-v1-${lineCount}`,
    load: async (at) => {
      const loader = await openPgStore(at, catalog)
      await loader.replaceDataset('bench_lines', syntheticLines(lineCount))
      await loader.close()
    },
  })
  url = db.url
  note = db.note
}

if (mode === 'both') {
  // Each render in a process of its own: the peak RSS is per process.
  if (note) console.log(note)
  const rest = argv.filter((a, i) => a !== '--render' && argv[i - 1] !== '--render')
  const results: string[] = []
  for (const m of ['whole', 'blocks']) {
    const out = execFileSync('npx', ['tsx', import.meta.filename, ...rest, '--render', m], {
      encoding: 'utf8',
    })
    process.stdout.write(out)
    results.push(...out.split('\n').filter((l) => l.startsWith('RESULT ')))
  }
  console.log(
    '\n| render | tiles | tiles digest | pieces | wall | CPU | peak RSS (VmHWM) | RSS before | load |',
  )
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
  for (const r of results) {
    const f = Object.fromEntries(
      r
        .slice(7)
        .split(' ')
        .map((kv) => kv.split('=')),
    )
    console.log(
      `| ${f.render} | ${f.tiles} | ${f.digest} | ${f.pieces} | ${f.wall} s | ${f.cpu} s | ${f.peak} MiB | ${f.before} MiB | ${f.load} |`,
    )
  }
  process.exit(0)
}

const rssMiB = (field: 'VmRSS' | 'VmHWM'): number =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) /
  1024

const store = await openPgStore(url, catalog)
const dataset = store.dataset(datasetId)
if (!dataset) throw new Error(`no dataset ${datasetId}`)
const info = await store.info(datasetId)
const storage = store.tileArchiveStorage
// Drop the complete set of this version (begin drops it; the render below writes it again).
for (const source of store.catalog.sources) {
  if (source.dataset !== datasetId) continue
  const set = await storage.current(source.id)
  if (set && set.version === info.version) {
    const release = await storage.lockRender(source.id, set.version)
    if (!release) throw new Error(`${source.id}: another renderer holds the set`)
    const { tiles: _t, bytes: _b, renderMs: _r, ...begin } = set
    await storage.begin(begin)
    await release()
  }
}
const shared = new SharedArchives(store, storage, {
  ...serverSettings().tiles,
  renderByBlocks: mode === 'blocks',
})
shared.renderWhen(() => true)
global.gc?.()
const before = rssMiB('VmRSS')
let peak = before
let atPeak = process.memoryUsage()
const sampler = setInterval(() => {
  const rss = rssMiB('VmRSS')
  if (rss > peak) {
    peak = rss
    atPeak = process.memoryUsage()
  }
}, 100)
const cpu0 = process.cpuUsage()
const t0 = performance.now()
await shared.render(datasetId, storeRenderData(store, dataset))
const wall = performance.now() - t0
const cpu = process.cpuUsage(cpu0)
clearInterval(sampler)
peak = Math.max(peak, rssMiB('VmRSS'))
const load = os.loadavg().map((l) => l.toFixed(1))
console.log(
  `dataset ${datasetId}: ${info.count} features, version ${info.version}; render by ${mode === 'blocks' ? 'blocks and pieces' : mode}${mode === 'blocks' ? ` (block budget ${ARCHIVE_POLICY.blockFeatures} features)` : ''}`,
)
for (const r of shared.rendered)
  console.log(
    `rendered ${r.source}@${r.version} in this process (the leader's place): ${r.tiles} tiles, ${(r.bytes / 1048576).toFixed(1)} MiB in ${(r.ms / 1000).toFixed(1)} s`,
  )
console.log(
  `render wall ${(wall / 1000).toFixed(1)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s (this process; PostgreSQL's backends not counted); blocks and pieces read ${shared.blocksRead}, of them pieces ${shared.piecesRead}`,
)
console.log(
  `RSS before ${before.toFixed(0)} MiB, peak while rendering ${peak.toFixed(0)} MiB (sampled), VmHWM ${rssMiB('VmHWM').toFixed(0)} MiB; load average ${load.join(' / ')}`,
)
const mib = (b: number) => (b / 1048576).toFixed(0)
console.log(
  `at the peak: V8 heap used ${mib(atPeak.heapUsed)} of ${mib(atPeak.heapTotal)} MiB, external ${mib(atPeak.external)} MiB (array buffers ${mib(atPeak.arrayBuffers)} MiB)`,
)
const tiles = shared.rendered.reduce((n, r) => n + r.tiles, 0)
// A digest of every tile of the sets written (z/x/y, mode, bytes): equal in both renders.
const hash = createHash('sha256')
for (const r of shared.rendered)
  for await (const t of storage.tiles(r.source, r.version)) {
    hash.update(`${t.z}/${t.x}/${t.y}/${t.mode}/${t.gz.length};`)
    hash.update(t.gz)
  }
const digest = hash.digest('hex').slice(0, 16)
console.log(`tiles digest ${digest}`)
console.log(
  `RESULT render=${mode === 'blocks' ? 'pieces' : 'whole'} tiles=${tiles} digest=${digest} pieces=${shared.piecesRead} wall=${(wall / 1000).toFixed(1)} cpu=${((cpu.user + cpu.system) / 1e6).toFixed(1)} peak=${rssMiB('VmHWM').toFixed(0)} before=${before.toFixed(0)} load=${load.join('/')}`,
)
await store.close()
