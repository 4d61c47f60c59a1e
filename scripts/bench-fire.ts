// npm run bench:fire — the fire engine's speed (issue #31 benchmark; figures in docs/fire.md):
//   grid: fire behaviour over 340,000 cells (target ≤ 1 s), the computation and the whole
//         `npm run fire -- grid` spawned as an analyst runs it (read 8 GeoTIFFs, compute, write 5), beside
//         the same command's start alone (`fire --help`: Node, tsx and the command's modules);
//   spread: one 6-hour spread over a 20 × 20 km window at 30 m (target ≤ 1 s), fire behaviour per block
//         where the fire comes (spreadOverLandscape: what `fire spread` and simulateFire do) — a small
//         fire, the uniform GR2 grass fire and a large GR4 fire; each checked against every cell first;
//   consequence: the demo territory's ignitions (every line, 500 m apart), per-ignition time of a 6-hour
//         fire and its counts at the consequence cell size, and the whole run (8 starts, 2 workers)
//         estimated from it (target ≤ 5 min); one "what if" fire with isochrones at 90 m.
// BENCH_RUNS (default 5) runs of each; BENCH_PARTS=grid,spread,consequence picks parts.
// Medians over several runs on a synthetic LANDFIRE-like landscape: FBFM40 fuel patches (grass, shrub,
// timber understory, litter, non-burnable), terrain slope and aspect from a smooth surface, canopy where
// there is timber.
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fireBehaviourGrid, type FireWeather, type Landscape } from '../src/fire/fireBehaviourGrid'
import { spreadOverLandscape } from '../src/fire/spread/landscapeSpread'
import { minimumTravelTime } from '../src/fire/spread/minimumTravelTime'
import { BEHAVEPLUS_GR2_MOISTURE, GS4_LOW_MOISTURE } from '../src/fire/publishedCases'
import { benchConsequence, benchOneFire, demoTerritory } from './fire/benchConsequence'
import { writeGeoTiff, type RasterGrid } from './fire/rasterIo'

const RUNS = Number(process.env.BENCH_RUNS ?? 5)
const CELL_M = 30
const FUELS = [102, 102, 102, 121, 122, 122, 142, 145, 147, 161, 165, 183, 188, 91] as const
const TIMBER = new Set([161, 165, 183, 186, 188])

function mulberry32(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** LANDFIRE-encoded rasters (fuel codes, slope °, aspect °, cover %, heights 0.1 m, density 0.01 kg/m³). */
function landfireLike(width: number, height: number) {
  const rand = mulberry32(31)
  const n = width * height
  const patch = 12
  const pw = Math.ceil(width / patch)
  const patchFuel = Array.from(
    { length: pw * Math.ceil(height / patch) },
    () => FUELS[Math.floor(rand() * FUELS.length)]!,
  )
  const out = {
    fuel: new Float64Array(n),
    slopeDeg: new Float64Array(n),
    aspect: new Float64Array(n),
    cover: new Float64Array(n),
    height: new Float64Array(n),
    base: new Float64Array(n),
    density: new Float64Array(n),
  }
  // Terrain z(x, y) in metres: a few long waves; slope and aspect from its gradient.
  const k = (2 * Math.PI) / (3000 / CELL_M)
  for (let row = 0; row < height; row++)
    for (let col = 0; col < width; col++) {
      const i = row * width + col
      const dzdx = (300 * k * Math.cos(k * col) + 120 * 2 * k * Math.cos(2 * k * (col + row))) / CELL_M
      const dzdy = (-200 * k * Math.sin(k * row) + 120 * 2 * k * Math.cos(2 * k * (col + row))) / CELL_M
      out.slopeDeg[i] = Math.round((Math.atan(Math.hypot(dzdx, dzdy)) * 180) / Math.PI)
      // Aspect: the direction the slope faces (downhill); rows run south, so north is −row.
      out.aspect[i] = Math.round(((Math.atan2(-dzdx, dzdy) * 180) / Math.PI + 360) % 360)
      const fuel = patchFuel[Math.floor(row / patch) * pw + Math.floor(col / patch)]!
      out.fuel[i] = fuel
      if (TIMBER.has(fuel)) {
        out.cover[i] = 40 + Math.floor(rand() * 50)
        out.height[i] = 150 + Math.floor(rand() * 150)
        out.base[i] = 5 + Math.floor(rand() * 40)
        out.density[i] = 5 + Math.floor(rand() * 25)
      }
    }
  return out
}

type Rasters = ReturnType<typeof landfireLike>

/** The same conversion `grid` applies (scripts/fire/landscapeArgs.ts). */
function toLandscape(r: Rasters, width: number, height: number): Landscape {
  const ft = 0.1 / 0.3048
  return {
    width,
    height,
    fuelModel: Int16Array.from(r.fuel),
    slopePercent: Float32Array.from(r.slopeDeg, (d) => Math.tan((d * Math.PI) / 180) * 100),
    aspectDeg: Float32Array.from(r.aspect),
    missing: new Uint8Array(width * height),
    canopyCoverPercent: Float32Array.from(r.cover),
    canopyHeightFt: Float32Array.from(r.height, (v) => v * ft),
    canopyBaseHeightFt: Float32Array.from(r.base, (v) => v * ft),
    canopyBulkDensityKgPerM3: Float32Array.from(r.density, (v) => v * 0.01),
  }
}

const WEATHER: FireWeather = {
  moisture: GS4_LOW_MOISTURE,
  windSpeedMph: 15,
  windFromDeg: 225,
  windHeight: '20ft',
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ms = (x: number) => `${Math.round(x).toLocaleString('en')} ms`

/**
 * CPU time (user + system) beside the wall time: on a machine shared with other work the wall time is
 * stretched by the load, the CPU time much less so — it is what the run costs, and near what an idle core
 * would take.
 */
interface Timed {
  wall: number[]
  cpu: number[]
}

async function timeIt(f: () => unknown | Promise<unknown>): Promise<Timed> {
  const out: Timed = { wall: [], cpu: [] }
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await f()
    out.wall.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    out.cpu.push((c.user + c.system) / 1000)
  }
  return out
}

const root = resolve(import.meta.dirname, '..')

/** Runs `npm run fire -- <args>` as an analyst does (its own process); wall and CPU (user + system) time. */
function spawnFire(args: readonly string[]): { wall: number; cpu: number } {
  // bash's `time` reports the CPU of the command and its children (tsx starts Node once more).
  const quoted = ['node_modules/.bin/tsx', 'scripts/fire.ts', ...args].map((a) => `'${a}'`).join(' ')
  const t0 = performance.now()
  const run = spawnSync('bash', ['-c', `TIMEFORMAT='%3U %3S'; time ${quoted} > /dev/null`], {
    cwd: root,
    encoding: 'utf8',
  })
  const wall = performance.now() - t0
  const [user, sys] = run.stderr.trim().split('\n').at(-1)!.split(' ').map(Number) as [number, number]
  if (run.status !== 0 || !Number.isFinite(user + sys))
    throw new Error(`fire ${args[0]} failed (exit ${run.status}): ${run.stderr}`)
  return { wall, cpu: (user + sys) * 1000 }
}

function spawnTimed(args: readonly string[]): Timed {
  const out: Timed = { wall: [], cpu: [] }
  for (let r = 0; r < RUNS; r++) {
    const t = spawnFire(args)
    out.wall.push(t.wall)
    out.cpu.push(t.cpu)
  }
  return out
}

/** The rows of the table the bench ends with (docs/fire.md quotes it). */
const table: { what: string; t: Timed; target: string }[] = []
function row(what: string, t: Timed, target = '', targetMs = Infinity): void {
  table.push({ what, t, target })
  console.log(
    `${what}: wall median ${ms(median(t.wall))} (runs ${t.wall.map(ms).join(', ')}), CPU median ${ms(median(t.cpu))}` +
      (target ? `; target ${target}: ${median(t.wall) <= targetMs ? 'met' : 'NOT met'} (wall)` : ''),
  )
}

async function benchGrid(): Promise<void> {
  const width = 680
  const height = 500 // 340,000 cells
  const rasters = landfireLike(width, height)
  const land = toLandscape(rasters, width, height)
  row(
    `grid: fire behaviour of ${(width * height).toLocaleString('en')} cells (the computation)`,
    await timeIt(() => fireBehaviourGrid(land, WEATHER)),
    '≤ 1 s',
    1000,
  )
  const types = [0, 0, 0, 0]
  for (const t of fireBehaviourGrid(land, WEATHER).fireType) types[t]! += 1
  console.log(
    `      fire types: unburnable ${types[0]}, surface ${types[1]}, passive ${types[2]}, active ${types[3]}`,
  )
  // The whole command on GeoTIFFs of the same landscape, in EPSG:5070, spawned as the analyst runs it.
  const dir = await mkdtemp(join(tmpdir(), 'bench-fire-'))
  try {
    const grid: RasterGrid = {
      width,
      height,
      geoTransform: [-1_000_000, CELL_M, 0, 1_500_000, 0, -CELL_M],
      geoKeys: {},
    }
    const files: Record<string, string> = {}
    for (const [name, values] of Object.entries(rasters)) {
      files[name] = join(dir, `${name}.tif`)
      await writeGeoTiff(files[name], grid, 'EPSG:5070', values, 'Float32', -9999)
    }
    const args = [
      'grid',
      ...['--fuel', files.fuel!, '--fuel-models', 'fbfm40', '--slope', files.slopeDeg!],
      ...['--slope-units', 'degrees', '--aspect', files.aspect!, '--canopy-cover', files.cover!],
      ...['--canopy-height', files.height!, '--canopy-base-height', files.base!],
      ...['--canopy-bulk-density', files.density!],
      ...['--moisture', '6,7,8,60,90', '--wind', '15', '--wind-from', '225', '--wind-height', '20ft'],
      ...['--out', join(dir, 'out')],
    ]
    const start = spawnTimed(['--help'])
    const whole = spawnTimed(args)
    row('`npm run fire -- --help` alone: Node, tsx and the command’s modules (its own process)', start)
    row('`npm run fire -- grid` on those cells, its own process: read 8 GeoTIFFs, compute, write 5', whole)
    row('      the same beyond the start (difference of medians)', {
      wall: [median(whole.wall) - median(start.wall)],
      cpu: [median(whole.cpu) - median(start.cpu)],
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The whole window's fire behaviour first, then the travel times (the check of the per-block way). */
function spreadEveryCell(
  land: Landscape,
  side: number,
  weather: FireWeather,
  ignition: number,
): Float64Array {
  const f = fireBehaviourGrid(land, weather)
  return minimumTravelTime({
    width: side,
    height: side,
    cellWidthM: CELL_M,
    cellHeightM: CELL_M,
    ignitionCells: [ignition],
    maxMinutes: 360,
    ellipses: () => ({
      headRosMPerMin: Float32Array.from(f.rosFtPerMin, (v) => v * 0.3048),
      eccentricity: f.eccentricity,
      maxSpreadDirDeg: f.maxSpreadDirDeg,
    }),
  })
}

/** Fire behaviour per 32 × 32 block only where the fire comes: `fire spread` and simulateFire's way. */
function spreadPerBlock(land: Landscape, weather: FireWeather, ignition: number): Float64Array {
  return spreadOverLandscape({
    landscape: land,
    weather: () => weather,
    periods: 1,
    cellWidthM: CELL_M,
    cellHeightM: CELL_M,
    ignitionCells: [ignition],
    maxMinutes: 360,
  })
}

async function benchSpread(name: string, land: Landscape, side: number, weather: FireWeather): Promise<void> {
  // Ignite the grass cell nearest the centre.
  let ignition = Math.floor(side / 2) * side + Math.floor(side / 2)
  while (land.fuelModel[ignition]! >= 120 || land.fuelModel[ignition]! < 101) ignition++
  const arrival = spreadPerBlock(land, weather, ignition)
  let burned = 0
  for (const t of arrival) if (t < Infinity) burned++
  row(
    `spread: 6 h over 20 × 20 km at 30 m (${side} × ${side} cells), ${name}: ` +
      `${burned.toLocaleString('en')} cells (${Math.round((burned * CELL_M * CELL_M) / 10_000).toLocaleString('en')} ha) burned`,
    await timeIt(() => spreadPerBlock(land, weather, ignition)),
    '≤ 1 s',
    1000,
  )
  const every = spreadEveryCell(land, side, weather, ignition)
  let differ = 0
  for (let i = 0; i < arrival.length; i++) if (Math.abs(arrival[i]! - every[i]!) > 1e-3) differ++
  if (differ > 0) throw new Error(`the per-block and every-cell spreads differ in ${differ} cells`)
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
const loadBefore = load()
console.log(`bench:fire — medians of ${RUNS} runs; load average ${loadBefore}`)
// BENCH_PARTS=grid,spread,consequence (default all) runs some parts only.
const parts = new Set((process.env.BENCH_PARTS ?? 'grid,spread,consequence').split(','))
if (parts.has('grid')) await benchGrid()
if (parts.has('spread')) {
  const side = Math.round(20_000 / CELL_M) // 667 × 667 cells of 30 m
  await benchSpread(
    'mixed landscape, 15 mph',
    toLandscape(landfireLike(side, side), side, side),
    side,
    WEATHER,
  )
  const n = side * side
  const uniform = (fuel: number): Landscape => ({
    width: side,
    height: side,
    fuelModel: new Int16Array(n).fill(fuel),
    slopePercent: new Float32Array(n),
    aspectDeg: new Float32Array(n),
    missing: new Uint8Array(n),
  })
  await benchSpread('uniform GR2 grass, 25 mph', uniform(102), side, { ...WEATHER, windSpeedMph: 25 })
  await benchSpread('uniform GR4 grass, 25 mph (a large fire)', uniform(104), side, {
    ...WEATHER,
    windSpeedMph: 25,
  })
  await benchSpread(
    'uniform GR7 grass, 45 mph, 1-h 3 % (a fire across much of the window)',
    uniform(107),
    side,
    {
      ...WEATHER,
      moisture: BEHAVEPLUS_GR2_MOISTURE,
      windSpeedMph: 45,
    },
  )
}
if (table.length > 0) {
  console.log(`\n| what | wall (load ${loadBefore} → ${load()}) | CPU | target |\n|---|---:|---:|---:|`)
  for (const r of table)
    console.log(`| ${r.what.trim()} | ${ms(median(r.t.wall))} | ${ms(median(r.t.cpu))} | ${r.target} |`)
}
if (parts.has('consequence')) {
  const territory = demoTerritory()
  benchConsequence(territory, Number(process.env.CONSEQUENCE_CELL_M ?? 400), 9)
  benchOneFire(territory, -106.7, 34.2, 90)
}
