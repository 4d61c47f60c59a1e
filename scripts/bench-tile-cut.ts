// npm run bench:tile-cut [-- --data-dir /tmp/eb-peer --config scripts/bench/peer-config --dataset buildings --passes 3]
// Profiles the cut of one dataset's tiles in process (no HTTP, one thread), stage by stage, on the
// tile list of the peer's data ($PEER_WORK/data/tiles.json): Flatbush pick, sliceTile (simplify,
// clip, wind), encoding (ours vs vt-pbf on the same features, the issue's "where vt-pbf is the
// bottleneck") and gzip at levels 1, 3, 6 and 9 (time and bytes: how the level is chosen).
// Prints the sum and median per stage of the cut tiles (z12-14 of a dense dataset; its z6-11 tiles are
// aggregated cells, timed whole), best of `passes` passes.
import fs from 'node:fs'
import path from 'node:path'
import zlib from 'node:zlib'
import { fromVectorTileJs } from 'vt-pbf'
import { serverSettings } from '../src/server/appSettings'
import { loadCatalog } from '../src/server/store/loadCatalog'
import { openStore } from '../src/server/store/sqliteStore'
import { buildTile, tilePlan } from '../src/server/tiles/buildTile'
import { EXTENT, pickTile } from '../src/server/tiles/encodeSlice'
import { encodeLayer } from '../src/server/tiles/mvtEncoder'
import { sliceTile } from '../src/server/tiles/sliceTile'
import { spatialIndex } from '../src/server/tiles/tileData'
import { readTileData, tileDataPath } from '../src/server/tiles/tileDataFile'
import type { BenchTile } from './bench/tileList'

const argv = process.argv.slice(2)
const arg = (k: string, d: string): string => {
  const i = argv.indexOf(`--${k}`)
  return i >= 0 ? (argv[i + 1] ?? d) : d
}
const dataDir = path.resolve(arg('data-dir', '/tmp/eb-peer'))
const dataset = arg('dataset', 'buildings')
const passes = Number(arg('passes', '3'))
const work = process.env.PEER_WORK ?? '/tmp/perf-peer'
const store = openStore(dataDir, loadCatalog(path.resolve(arg('config', 'scripts/bench/peer-config'))))
const source = store.catalog.sources.find((s) => s.dataset === dataset)
if (!source || !store.location) throw new Error(`no source for ${dataset}`)
const data = await readTileData(tileDataPath(store.location, dataset), store.info(dataset))
if (!data) throw new Error('no tile data file: import the dataset first')
const index = spatialIndex(data)
const tiles = JSON.parse(fs.readFileSync(path.join(work, 'data', 'tiles.json'), 'utf8')) as BenchTile[]
const limits = serverSettings().tiles
const LEVELS = [1, 3, 6, 9] as const
type Stage = 'pick' | 'slice' | 'encode' | 'vtpbf' | `gzip${(typeof LEVELS)[number]}`
const stages: Stage[] = ['pick', 'slice', 'encode', 'vtpbf', ...LEVELS.map((l) => `gzip${l}` as const)]

const now = (): number => performance.now()
let best: { z: number; t: Record<Stage, number>; bytes: Record<string, number>; features: number }[] = []
const aggregated: { z: number; ms: number }[] = []
let bestTotal = Infinity
for (let pass = 0; pass < passes; pass++) {
  aggregated.length = pass === 0 ? 0 : aggregated.length
  const rows: typeof best = []
  for (const { z, x, y } of tiles) {
    const plan = tilePlan(store, source, data.n, z, limits)
    if (plan.aggregate) {
      // Aggregated cells: read from the store's precomputed counts (what a pool worker runs).
      const s0 = now()
      await buildTile(store, source, z, x, y, limits)
      if (pass === 0) aggregated.push({ z, ms: now() - s0 })
      continue
    }
    const t = {} as Record<Stage, number>
    const bytes: Record<string, number> = {}
    let s = now()
    const pick = pickTile(index, z, x, y, plan)
    t.pick = now() - s
    s = now()
    const cut = sliceTile(data, pick.picked, z, x, y, {
      extent: EXTENT,
      buffer: 64,
      tolerance: plan.tolerance,
    })
    t.slice = now() - s
    s = now()
    const pbf = encodeLayer(data, dataset, cut, EXTENT)
    t.encode = now() - s
    s = now()
    fromVectorTileJs({
      layers: {
        [dataset]: { name: dataset, version: 2, extent: EXTENT, length: cut.length, feature: (i) => cut[i] },
      },
    })
    t.vtpbf = now() - s
    bytes.raw = pbf.length
    for (const level of LEVELS) {
      s = now()
      bytes[`gzip${level}`] = cut.length ? zlib.gzipSync(pbf, { level }).length : 0
      t[`gzip${level}`] = now() - s
    }
    rows.push({ z, t, bytes, features: cut.length })
  }
  const total = rows.reduce((a, r) => a + r.t.pick + r.t.slice + r.t.encode + r.t.gzip1, 0)
  if (total < bestTotal) {
    bestTotal = total
    best = rows
  }
}

const med = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0
const f = (v: number): string => v.toFixed(2)
for (const [label, zs] of [
  ['z6-8', [6, 8]],
  ['z10-11', [10, 11]],
] as const) {
  const v = aggregated.filter((a) => a.z >= zs[0] && a.z <= zs[1]).map((a) => a.ms)
  if (v.length)
    console.log(
      `${dataset} ${label} aggregated (store cells + vt-pbf): ${v.length} tiles, sum ${f(v.reduce((a, b) => a + b, 0))} ms, median ${f(med(v))} ms`,
    )
}
for (const [label, rows] of [['cut', best]] as const) {
  console.log(
    `\n${dataset} ${label}: ${rows.length} cut tiles, ${med(rows.map((r) => r.features))} features median`,
  )
  for (const st of stages) {
    const v = rows.map((r) => r.t[st])
    console.log(
      `  ${st.padEnd(7)} sum ${f(v.reduce((a, b) => a + b, 0)).padStart(9)} ms   median ${f(med(v))} ms`,
    )
  }
  for (const z of [...new Set(rows.map((r) => r.z))].sort((a, b) => a - b)) {
    const zr = rows.filter((r) => r.z === z)
    const cell = (st: Stage): string => f(med(zr.map((r) => r.t[st])))
    console.log(
      `  z${z}: ${zr.length} tiles, median ${med(zr.map((r) => r.features))} features, ${f(med(zr.map((r) => r.bytes.raw ?? 0)) / 1024)} KiB raw; median ms pick ${cell('pick')} slice ${cell('slice')} encode ${cell('encode')} gzip1 ${cell('gzip1')}`,
    )
  }
  for (const k of ['raw', ...LEVELS.map((l) => `gzip${l}`)]) {
    const v = rows.map((r) => r.bytes[k] ?? 0)
    console.log(
      `  bytes ${k.padEnd(6)} sum ${(v.reduce((a, b) => a + b, 0) / 1024).toFixed(0).padStart(7)} KiB   max ${(Math.max(...v) / 1024).toFixed(0)} KiB`,
    )
  }
}
store.close()
