// npm run bench:server [-- --peer [--prepare] [--seed S] [--buildings N]] [--data-dir DIR --config DIR]
//                         [--layers a,b] [--conc 1,2] [--records N] [--seed S | --tiles tiles.json] [--floor N]
//                         [--store postgres [--database-url URL]] [--client autocannon|wrk] [--repeats N]
// Starts the data server (scripts/bench/benchServer.ts) in its own process and measures it over
// HTTP with autocannon (scripts/bench/loadClient.ts): startup with an existing store, tiles cold
// (first request of each tile after a fresh start) and repeated per tile set, the tiles' sizes and
// feature counts, records, RSS, and the load client's own ceiling (a bare route). With --peer, on
// the PostGIS peer's data (gen-data.mjs --seed S, which also draws the tile list), the same client
// measures in the same run the plain peer (Martin's SQL) and the equal-content peer
// (bench-pg-policy.mjs's SQL) behind scripts/bench/peerServer.ts, and prints the ratios.
// With --store postgres, our server runs twice on the same data, tile list and records mix: on
// SQLite, then on PostgreSQL/PostGIS (STORE=postgres; the data loaded once into a database of
// --database-url's cluster, or of a throw-away cluster from scripts/postgres.sh), and the
// PostgreSQL/SQLite ratios are printed against #19's targets.
// --client wrk replays every list (ours and the peers') with wrk instead of autocannon: a C client
// that is not the bottleneck of the points and cached-repeat sets (Debian: apt-get install wrk).
// The repeat pass asks the list --repeats times (default 5) in one run per set: the p95 of cached
// tiles over that many answers (a single pass of 48 tiles has the p95 of its 3rd-worst answer). The
// client's ceiling adds a bare node:http server (scripts/bench/bareServer.ts) replayed like a list.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { layersConfig } from '../src/shared/config'
import { newMexico } from '../src/demo/geography'
import { seedDemo } from '../src/demo/seedDemo'
import { defaultCatalog } from '../src/server/store/catalog'
import { openPgStore } from '../src/server/store/pg/pgStore'
import { openStore } from '../src/server/store/sqliteStore'
import { saveTileData } from '../src/server/tiles/saveTileData'
import { cpuMs, rssMiB, startChild, type ChildServer } from './bench/childServer'
import { hammer, loadClientName, replay, selectLoadClient, type ListPass } from './bench/loadClient'
import { peerData, preparePeer } from './bench/peerData'
import { recordsUrls } from './bench/recordsUrls'
import { benchTiles, type BenchTile } from './bench/tileList'
import { benchDatabase } from './bench/benchDatabase'

const argv = process.argv.slice(2)
const arg = (k: string, d: string): string => {
  const i = argv.indexOf(`--${k}`)
  return i >= 0 ? (argv[i + 1] ?? d) : d
}
const token = 'bench-token'
const peer = argv.includes('--peer')
const work = process.env.PEER_WORK ?? '/tmp/perf-peer'
const configDir = arg('config', peer ? 'scripts/bench/peer-config' : '')
let dataDir = arg('data-dir', peer ? '/tmp/eb-peer' : '')
const layers = arg(
  'layers',
  configDir
    ? 'buildings,lines,points'
    : 'buildings,demo/asset_data/distribution_lines,critical_infrastructure',
).split(',')
const concs = arg('conc', '1,2').split(',').map(Number)
const recordsN = Number(arg('records', '300'))
const floorN = Number(arg('floor', '20000'))
const repeats = Math.max(1, Number(arg('repeats', '5')))
const seedArg = Number(arg('seed', peer ? '20261125' : '42'))
const storeKinds = arg('store', 'sqlite') === 'postgres' ? ['sqlite', 'postgres'] : ['sqlite']
const clientArg = arg('client', 'autocannon')
if (clientArg !== 'autocannon' && clientArg !== 'wrk') throw new Error('--client takes autocannon or wrk')
selectLoadClient(clientArg)

let seed = seedArg
let tiles: BenchTile[]
if (peer) {
  if (argv.includes('--prepare'))
    preparePeer(work, seedArg, Number(arg('buildings', '1000000')), dataDir, configDir)
  const d = peerData(work, dataDir)
  seed = d.seed
  tiles = d.tiles
} else if (configDir) {
  // A store imported with that config (e.g. the peer's 5,000,000 buildings): measured as it is.
  if (!dataDir || !fs.existsSync(path.join(dataDir, 'emberline.sqlite')))
    throw new Error('--config without --peer measures an existing store: give its --data-dir')
  const file = arg('tiles', '')
  if (!file) throw new Error('--config without --peer: give the tile list with --tiles tiles.json')
  tiles = JSON.parse(fs.readFileSync(file, 'utf8')) as BenchTile[]
} else {
  // The demo data: seeded into a temporary directory, or into --data-dir once per building count.
  const buildings = Number(arg('buildings', '200000'))
  if (!dataDir) dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-'))
  const stampFile = path.join(dataDir, 'bench-seed.txt')
  const stamp = `demo/${buildings}`
  if (!fs.existsSync(stampFile) || fs.readFileSync(stampFile, 'utf8') !== stamp) {
    const ours = fs.existsSync(stampFile) || !fs.existsSync(dataDir) || fs.readdirSync(dataDir).length === 0
    if (!ours)
      throw new Error(`${dataDir} holds data that is not a bench seed: give a new or empty directory`)
    const t = performance.now()
    fs.rmSync(dataDir, { recursive: true, force: true })
    const store = openStore(dataDir, defaultCatalog())
    await seedDemo(store, { buildings, steps: [] })
    // As `npm run seed` does: tile data and the small sources' tile archives, written once.
    for (const d of store.catalog.datasets) await saveTileData(store, d.id)
    store.close()
    fs.writeFileSync(stampFile, stamp)
    console.log(
      `seed: ${buildings} buildings in ${((performance.now() - t) / 1000).toFixed(1)} s (${dataDir})`,
    )
  }
  const geo = newMexico()
  const file = arg('tiles', '')
  tiles = file
    ? (JSON.parse(fs.readFileSync(file, 'utf8')) as BenchTile[])
    : benchTiles(geo.bbox, geo.places, 500, seed)
}

const auth = { authorization: `Bearer ${token}` }
const gz = { ...auth, 'accept-encoding': 'gzip' }
const rows: string[] = []
const loads: string[] = []
const noteLoad = (when: string): void => {
  loads.push(`${when} ${os.loadavg()[0]?.toFixed(2)}`)
}
const fmt = (p: ListPass): string =>
  `${p.perS.toFixed(1)} tiles/s; ` +
  Object.entries(p.sets)
    .map(([set, s]) => `${set} p50/p95/max ${s.p50}/${s.p95}/${s.max} ms`)
    .join('; ') +
  (p.errors ? `; ERRORS ${p.errors}` : '')

/** The tiles of the list a source serves (a request beyond its zooms is a client error). */
function inRange(layer: string): BenchTile[] {
  const source = layersConfig.sources.find(
    (s) => s.type === 'mvt' && (s.path === layer || s.demoPath === layer),
  )
  if (!source || source.type !== 'mvt' || peer) return tiles
  return tiles.filter((t) => t.z >= source.minzoom && t.z <= source.maxzoom)
}

/** A z14 tile next to a listed one (features likely) that the list does not hold. */
function offList(list: BenchTile[]): BenchTile {
  const keys = new Set(list.map((t) => `${t.z}/${t.x}/${t.y}`))
  for (const t of list.filter((l) => l.z === 14))
    for (const dx of [1, -1, 2, -2])
      if (!keys.has(`14/${t.x + dx}/${t.y}`)) return { z: 14, x: t.x + dx, y: t.y, set: 'z10-14' }
  return { z: 16, x: 0, y: 0, set: 'z10-14' }
}

/** Sizes and feature counts of the tiles just served (untimed; they are cached by now). */
async function content(base: string, layer: string, list: BenchTile[]) {
  let maxBytes = 0
  let maxFeatures = 0
  let over = 0
  for (const t of list) {
    const res = await fetch(`${base}/api/tiles/${layer}/mvt/${t.z}/${t.x}/${t.y}`, { headers: gz })
    await res.arrayBuffer()
    // fetch inflates the body; the header holds the gzip bytes sent.
    const bytes = Number(res.headers.get('content-length') ?? 0)
    const features = Number(res.headers.get('x-tile-features') ?? 0)
    maxBytes = Math.max(maxBytes, bytes)
    maxFeatures = Math.max(maxFeatures, features)
    if (bytes > 500_000 || features > 50_000) over += 1
  }
  return { maxBytes, maxFeatures, over }
}

interface Figures {
  cold: ListPass
  repeat: ListPass
  /** Server CPU (all threads) per tile of the cold pass, ms: what the load of a shared machine does not change. */
  cpu: number
}
const ours = new Map<string, Figures>()
const peers = new Map<string, ListPass & { cpu: number }>()
let floor = { health: 0, archiveHit: 0 }

const recordsP95 = new Map<string, number>()
// PostgreSQL mode: the same data loaded once into the bench database (COPY through the store).
const pg = storeKinds.includes('postgres')
  ? await benchDatabase({
      url: arg('database-url', process.env.DATABASE_URL ?? ''),
      name: peer ? 'eb_bench_peer' : 'eb_bench_demo',
      stamp: peer ? `peer/${seed}/${tiles.length}` : `demo/${arg('buildings', '200000')}`,
      load: async (url) => {
        if (peer) {
          for (const l of ['points', 'lines', 'buildings'])
            execFileSync(
              'npx',
              ['tsx', 'scripts/import.ts', l, path.join(work, 'data', `${l}.ndjson`), '--config', configDir],
              { stdio: 'inherit', env: { ...process.env, STORE: 'postgres', DATABASE_URL: url } },
            )
          return
        }
        const store = await openPgStore(url, defaultCatalog())
        try {
          await seedDemo(store, { buildings: Number(arg('buildings', '200000')), steps: [] })
        } finally {
          await store.close()
        }
      },
    })
  : null
if (pg) rows.push(`PostgreSQL mode data: ${pg.note}`)

for (const kind of storeKinds) {
  // Row prefix: "ours " as before; with --store postgres, which store.
  const tag = storeKinds.length > 1 ? `ours/${kind} ` : 'ours '
  for (const conc of concs) {
    const server: ChildServer = await startChild('scripts/bench/benchServer.ts', {
      DATA_DIR: dataDir,
      BENCH_TOKEN: token,
      ...(configDir ? { CONFIG_DIR: configDir, DEMO: 'off' } : {}),
      ...(kind === 'postgres' && pg ? { STORE: 'postgres', DATABASE_URL: pg.url } : {}),
    })
    // Server CPU: the process, plus PostgreSQL's postmaster and backends in PostgreSQL mode.
    const serverCpu = () => cpuMs([server.child.pid], kind === 'postgres' ? pg?.postmaster() : undefined)
    const base = `http://127.0.0.1:${server.port}`
    rows.push(
      `${tag}startup c${conc} (existing store): process spawn to listening ${server.spawnToListenMs} ms (in process: open + buildApp + listen ${server.startupMs} ms)`,
    )
    // Tile data and archives read (the cold pass measures cutting, not the first file read).
    rows.push(`${tag}tile data + indexes ready c${conc}: ${await server.warm} ms after start`)
    // PostgreSQL mode: the shared archives (who rendered them, how long, the leader's peak RSS).
    for (const l of server.lines.filter((x) => x.startsWith('archive ')))
      rows.push(`${tag}c${conc} ${l} (RSS now ${rssMiB(server.child.pid) ?? '?'} MiB)`)
    // Warm both sides' HTTP code on the bare health route: no tile is touched.
    await hammer(base, '/api/health', 2, 3000)
    noteLoad(`${kind} c${conc} start`)
    for (const layer of layers) {
      const list = inRange(layer)
      const paths = list.map((t) => `/api/tiles/${layer}/mvt/${t.z}/${t.x}/${t.y}`)
      const sets = list.map((t) => t.set)
      // JIT warm-up of this layer's tile path on one tile outside the list (cut once, then a cache
      // or archive hit): a server that has run for a while has compiled it; the listed tiles stay cold.
      const off = offList(list)
      await hammer(base, `/api/tiles/${layer}/mvt/${off.z}/${off.x}/${off.y}`, conc, 2000, gz)
      const cpu0 = serverCpu()
      const cold = await replay(base, paths, sets, conc, gz)
      const cpu = (serverCpu() - cpu0) / paths.length
      const again = <T>(v: readonly T[]): T[] => Array.from({ length: repeats }, () => v).flat()
      const repeat = await replay(base, again(paths), again(sets), conc, gz)
      ours.set(`${kind} ${layer} c${conc}`, { cold, repeat, cpu })
      rows.push(`${tag}${layer} c${conc} cold:   ${fmt(cold)}; server CPU ${cpu.toFixed(2)} ms/tile`)
      rows.push(`${tag}${layer} c${conc} repeat (list ×${repeats}): ${fmt(repeat)}`)
      if (conc === concs[0] && kind === storeKinds[0]) {
        const c = await content(base, layer, list)
        rows.push(
          `${tag}${layer} content: largest tile ${(c.maxBytes / 1024).toFixed(0)} KiB gzip, most features ${c.maxFeatures}, over 500 KB or 50,000 features: ${c.over}`,
        )
      }
    }
    noteLoad(`${kind} c${conc} tiles done`)
    if (conc === Math.max(...concs) && floorN > 0 && kind === storeKinds[0]) {
      // The client's ceiling on this machine: the bare public route, and one archived tile (a hit).
      const h = await hammer(base, '/api/health', conc, floorN)
      const archived = tiles.find((t) => t.set === 'z10-14') as BenchTile
      const hitPath = `/api/tiles/${layers[layers.length - 1]}/mvt/${archived.z}/${archived.x}/${archived.y}`
      const hit = await hammer(base, hitPath, conc, floorN, gz)
      floor = { health: h.perS, archiveHit: hit.perS }
      rows.push(
        `client ceiling c${conc}: /api/health ${h.perS.toFixed(0)} req/s (p95 ${h.latency.p95} ms); one cached ${layers[layers.length - 1]} tile ${hit.perS.toFixed(0)} req/s (p95 ${hit.latency.p95} ms) = ${((100 * hit.perS) / h.perS).toFixed(0)} % of health`,
      )
      // The platform's floor in the list protocol: a bare node:http server, the list's paths once.
      const bare = await startChild('scripts/bench/bareServer.ts', {})
      const bareBase = `http://127.0.0.1:${bare.port}`
      // Warmed up as our server is (3,000 requests on one path), then the list's paths once and ×repeats.
      await hammer(bareBase, '/warm', conc, 3000)
      const list = tiles.map((t) => `/bare/${t.z}/${t.x}/${t.y}`)
      const all = (n: number) => Array.from({ length: n }, () => list).flat()
      const once = await replay(
        bareBase,
        list,
        list.map(() => 'all'),
        conc,
      )
      const many = await replay(
        bareBase,
        all(repeats),
        all(repeats).map(() => 'all'),
        conc,
      )
      await bare.stop()
      rows.push(
        `platform floor c${conc}: a bare node:http server (2 KiB body, no framework, no session, no headers) replayed the list once at ${once.perS.toFixed(0)} req/s (p95 ${once.sets.all?.p95} ms), ×${repeats} at ${many.perS.toFixed(0)} req/s (p95 ${many.sets.all?.p95} ms)`,
      )
    }
    const urls = recordsN > 0 ? recordsUrls(configDir !== '', recordsN) : []
    if (urls.length) {
      await replay(
        base,
        urls.slice(0, 20),
        urls.slice(0, 20).map(() => 'records'),
        1,
        auth,
      )
      const rec = await replay(
        base,
        urls,
        urls.map(() => 'records'),
        conc,
        auth,
      )
      const s = rec.sets.records
      if (s) recordsP95.set(`${kind} c${conc}`, s.p95)
      rows.push(
        `${tag}records c${conc} (page + total): p50/p95/max ${s?.p50}/${s?.p95}/${s?.max} ms; ${rec.perS.toFixed(0)} req/s; errors ${rec.errors}`,
      )
    }
    rows.push(`${tag}server RSS after c${conc}: ${rssMiB(server.child.pid) ?? '?'} MiB`)
    await server.stop()
  }
}

if (peer) {
  const p = await startChild('scripts/bench/peerServer.ts', { PEER_WORK: work })
  const base = `http://127.0.0.1:${p.port}`
  // The peer's PostgreSQL: its postmaster and backends (not any other cluster on the machine).
  const postmaster = Number(
    fs.readFileSync(path.join(work, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0],
  )
  noteLoad('peer start')
  const variants: [string, string][] = [
    ...layers.map((l): [string, string] => ['plain', l]),
    ['policy', 'buildings'],
  ]
  for (const [variant, layer] of variants) {
    const paths = tiles.map((t) => `/${variant}/${layer}/${t.z}/${t.x}/${t.y}`)
    const sets = tiles.map((t) => t.set)
    // Warm-up (statement plans, PostgreSQL's cache), as bench-pg.mjs does: 10 tiles, not measured.
    await replay(base, paths.filter((_, i) => sets[i] === 'z10-14').slice(0, 10), Array(10).fill('w'), 1)
    for (const conc of concs) {
      const cpu0 = cpuMs([p.child.pid], postmaster)
      const pass = await replay(base, paths, sets, conc)
      const cpu = (cpuMs([p.child.pid], postmaster) - cpu0) / paths.length
      peers.set(`${variant} ${layer} c${conc}`, { ...pass, cpu })
      rows.push(
        `peer ${variant} ${layer} c${conc}: ${fmt(pass)}; peer CPU (PostgreSQL + front) ${cpu.toFixed(2)} ms/tile`,
      )
    }
  }
  noteLoad('peer done')
  await p.stop()
}

console.log(
  `\nEmberline data server benchmark — ${os.cpus().length} cores, load client ${loadClientName()} (keep-alive, 1 request in flight per connection)`,
)
console.log(
  `tile list: ${peer ? `seed ${seed} (gen-data.mjs --seed ${seed}; ${work}/data/tiles.json)` : arg('tiles', '') ? `from ${arg('tiles', '')}` : `seed ${seed} (scripts/bench/tileList.ts)`}; ${tiles.length} tiles (${tiles.filter((t) => t.set === 'z6-8').length} z6-8 + ${tiles.filter((t) => t.set === 'z10-14').length} z10-14); ours gzip, peers raw MVT`,
)
console.log(`load average (1 min): ${loads.join(', ')}`)
for (const r of rows) console.log(r)

if (peer) {
  const top = Math.max(...concs)
  const o = (l: string) => ours.get(`sqlite ${l} c${top}`)
  const ratio = (a?: number, b?: number) => (a && b ? `${(a / b).toFixed(2)}×` : '–')
  const b = o('buildings')
  const eq = peers.get(`policy buildings c${top}`)
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
  console.log(`\nTargets at ${top} clients (ratios against the peers measured above):`)
  if (b && eq) {
    const hi = b.cold.sets['z10-14']?.p95 ?? Infinity
    const lo = b.cold.sets['z6-8']?.p95 ?? Infinity
    console.log(
      `buildings cold ${b.cold.perS.toFixed(1)} vs equal-content peer ${eq.perS.toFixed(1)} tiles/s = ${ratio(b.cold.perS, eq.perS)} (≥ 2×: ${verdict(b.cold.perS >= 2 * eq.perS)}); p95 z10-14 ${hi} ms (≤ 50: ${verdict(hi <= 50)}), z6-8 ${lo} ms (≤ 60: ${verdict(lo <= 60)}); CPU per tile ${b.cpu.toFixed(1)} vs ${eq.cpu.toFixed(1)} ms = ${ratio(eq.cpu, b.cpu)} less`,
    )
  }
  for (const l of ['lines', 'points']) {
    const mine = o(l)
    const plain = peers.get(`plain ${l} c${top}`)
    if (mine && plain) {
      const client =
        floor.health > 0 && mine.cold.perS > 0.7 * floor.health
          ? ' (client/HTTP-bound: within 30 % of the bare route)'
          : ''
      console.log(
        `${l} cold ${mine.cold.perS.toFixed(0)} vs plain peer ${plain.perS.toFixed(0)} tiles/s = ${ratio(mine.cold.perS, plain.perS)} (≥ 5×: ${verdict(mine.cold.perS >= 5 * plain.perS)})${client}; CPU per tile ${mine.cpu.toFixed(2)} vs ${plain.cpu.toFixed(2)} ms = ${ratio(plain.cpu, mine.cpu)} less`,
      )
    }
  }
  const worstRepeat = Math.max(
    ...[...ours.values()].flatMap((f) => Object.values(f.repeat.sets).map((s) => s.p95)),
  )
  console.log(
    `cached repeats: worst p95 over layers, sets and client counts ${worstRepeat} ms (≤ 1 ms: ${verdict(worstRepeat <= 1)})`,
  )
}

if (storeKinds.includes('postgres')) {
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met')
  console.log('\nPostgreSQL mode against SQLite mode (same data, tile list and records; #19 targets):')
  for (const layer of layers)
    for (const conc of concs) {
      const a = ours.get(`sqlite ${layer} c${conc}`)
      const b = ours.get(`postgres ${layer} c${conc}`)
      if (!a || !b) continue
      const ratio = a.cold.perS / b.cold.perS
      const sets = Object.keys(a.cold.sets).map((set) => {
        const pa = a.cold.sets[set]?.p95 ?? 0
        const pb = b.cold.sets[set]?.p95 ?? Infinity
        // Within 1.5×, or within a millisecond where both are sub-millisecond-ish.
        const ok = pb <= 1.5 * pa || pb - pa <= 1
        return `${set} p95 ${pb} vs ${pa} ms (${verdict(ok)})`
      })
      console.log(
        `${layer} c${conc}: cold ${b.cold.perS.toFixed(1)} vs ${a.cold.perS.toFixed(1)} tiles/s = SQLite ${ratio.toFixed(2)}× PostgreSQL (≤ 1.5×: ${verdict(ratio <= 1.5)}); ${sets.join('; ')}; server CPU ${b.cpu.toFixed(2)} vs ${a.cpu.toFixed(2)} ms/tile`,
      )
    }
  for (const conc of concs) {
    const p95 = recordsP95.get(`postgres c${conc}`)
    if (p95 !== undefined)
      console.log(
        `records c${conc}: p95 ${p95} ms on PostgreSQL vs ${recordsP95.get(`sqlite c${conc}`)} ms on SQLite${conc === 2 ? ` (≤ 20 ms at 2 clients: ${verdict(p95 <= 20)})` : ''}`,
      )
  }
  console.log('import → new tiles on another server: npm run bench:cluster (docs/deployment.md)')
}
