/**
 * Raster tile benchmark: `npm run bench:grids [-- --tiles N]`. Seeds the New Mexico grids at full
 * resolution into a temp data dir, then times PNG tiles through the real app (app.inject, no
 * network): cold (first render, grid already loaded), repeat (tile cache) and the seed itself.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { buildApp } from '../src/server/app'
import { gridCatalog } from '../src/server/grids/gridCatalog'
import { seedGrids } from '../src/demo/grids/seedGrids'

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name)
  return i >= 0 ? Number(process.argv[i + 1]) : fallback
}
const perSource = arg('--tiles', 40)
const token = 'bench-token'
const verifier = {
  verify: async (t: string) =>
    t === token
      ? {
          memberId: 'b',
          sessionId: 'b',
          organizationId: 'o',
          roles: [],
          expiresAt: new Date(Date.now() + 3.6e6),
        }
      : null,
}
const pct = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!
const fmt = (xs: number[]): string =>
  `p50 ${pct(xs, 50).toFixed(2)} ms  p95 ${pct(xs, 95).toFixed(2)} ms  max ${Math.max(...xs).toFixed(2)} ms  (n=${xs.length})`

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'emberline-bench-grids-'))
const app = await buildApp({ dataDir: dir, demo: true, verifier })
await app.ready()
let t = performance.now()
const seeded = await seedGrids(app.store, {
  seed: 20250305,
  fires: [
    { name: 'Bench Fire', lon: -106.4, lat: 35.9, acres: 12000, percentContained: 30 },
    { name: 'Gila Fire', lon: -108.3, lat: 33.2, acres: 4000, percentContained: 60 },
  ],
})
const seedMs = performance.now() - t

/** Tiles over New Mexico at zooms 6..11 around the state, deterministic. */
function tilesFor(n: number, minzoom: number, maxzoom: number): [number, number, number][] {
  const out: [number, number, number][] = []
  for (let k = 0; out.length < n; k++) {
    const z = Math.min(maxzoom, Math.max(minzoom, 6 + (k % 6)))
    const lon = -108.8 + ((k * 0.6180339) % 1) * 5.6
    const lat = 31.6 + ((k * 0.7548776) % 1) * 5.2
    const world = 2 ** z
    const x = Math.floor(((lon + 180) / 360) * world)
    const s = Math.sin((lat * Math.PI) / 180)
    const y = Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * world)
    if (!out.some(([a, b, c]) => a === z && b === x && c === y)) out.push([z, x, y])
  }
  return out
}

const cold: number[] = []
const warm: number[] = []
const cpu = { cold: 0, warm: 0 }
let bytes = 0
let empty = 0
for (const source of gridCatalog().rasterSources) {
  const hour = source.grid.hours > 1 ? '?hour=3' : ''
  const tiles = tilesFor(perSource, source.minzoom, source.maxzoom)
  // Load the grid once (first request of a grid decodes it from SQLite), outside the figures.
  const [z0, x0, y0] = tiles[0]!
  await app.inject({
    url: `/api/tiles/${source.path}/png/${z0}/${x0}/${y0 + 1}${hour}`,
    headers: { authorization: `Bearer ${token}` },
  })
  for (const pass of [cold, warm]) {
    const cpuStart = process.cpuUsage()
    for (const [z, x, y] of tiles) {
      t = performance.now()
      const res = await app.inject({
        url: `/api/tiles/${source.path}/png/${z}/${x}/${y}${hour}`,
        headers: { authorization: `Bearer ${token}` },
      })
      pass.push(performance.now() - t)
      if (pass === cold) {
        bytes += res.rawPayload.length
        if (res.statusCode === 204) empty++
      }
    }
    const used = process.cpuUsage(cpuStart)
    cpu[pass === cold ? 'cold' : 'warm'] += (used.user + used.system) / 1000
  }
}
// Framework baseline: the same inject pipeline (auth hook included) on a trivial route.
const health: number[] = []
for (let i = 0; i < 200; i++) {
  t = performance.now()
  await app.inject({ url: '/api/health' })
  health.push(performance.now() - t)
}
await app.close()
fs.rmSync(dir, { recursive: true, force: true })
console.log(
  `grids seeded: ${seeded.grids.length} grids, ${seeded.windPoints} wind points, ${seeded.smokePolygons} smoke polygons in ${(seedMs / 1000).toFixed(2)} s`,
)
console.log(
  `PNG tiles cold   : ${fmt(cold)}  avg ${(bytes / Math.max(1, cold.length - empty) / 1024).toFixed(1)} KB, ${empty} empty (204)`,
)
console.log(`PNG tiles repeat : ${fmt(warm)}`)
console.log(
  `CPU time per tile: cold ${(cpu.cold / cold.length).toFixed(2)} ms, repeat ${(cpu.warm / warm.length).toFixed(2)} ms ` +
    `(wall times above include waiting for a CPU on a loaded machine)`,
)
console.log(`baseline GET /api/health via inject: ${fmt(health)}`)
console.log(
  `targets: cold p95 ≤ 30 ms, repeat ≤ 2 ms, machine load ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`,
)
