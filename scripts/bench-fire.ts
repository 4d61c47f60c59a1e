// npm run bench:fire — the fire engine's speed (issue #31 benchmark; figures in docs/fire.md):
//   grid: fire behaviour over 340,000 cells (target ≤ 1 s), the computation and the whole
//         `npm run fire -- grid` (reading and writing the GeoTIFFs) on the same landscape;
//   spread: one 6-hour spread over a 20 × 20 km window at 30 m (target ≤ 1 s);
//   consequence: the demo territory's ignitions (every line, 500 m apart), per-ignition time of a 6-hour
//         fire and its counts at the consequence cell size, and the whole run (8 starts, 2 workers)
//         estimated from it (target ≤ 5 min); one "what if" fire with isochrones at 90 m.
// BENCH_RUNS (default 5) runs of each; BENCH_PARTS=grid,spread,consequence picks parts.
// Medians over several runs on a synthetic LANDFIRE-like landscape: FBFM40 fuel patches (grass, shrub,
// timber understory, litter, non-burnable), terrain slope and aspect from a smooth surface, canopy where
// there is timber.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fireBehaviourGrid, type FireWeather, type Landscape } from '../src/fire/fireBehaviourGrid'
import { ellipseRates, minimumTravelTime } from '../src/fire/spread/minimumTravelTime'
import { benchConsequence, benchOneFire, demoTerritory } from './fire/benchConsequence'
import { runGrid } from './fire/gridCommand'
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
  moisture: {
    oneHourPercent: 6,
    tenHourPercent: 7,
    hundredHourPercent: 8,
    liveHerbPercent: 60,
    liveWoodyPercent: 90,
  },
  windSpeedMph: 15,
  windFromDeg: 225,
  windHeight: '20ft',
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ms = (x: number) => `${x.toFixed(0)} ms`

/**
 * CPU time (user + system) of this process over each run, beside the wall times: on a machine shared
 * with other work the wall time is stretched by the load, the CPU time much less so — it is what the
 * run costs, and near what an idle core would take.
 */
let cpuTimes: number[] = []
const cpu = () => `CPU median ${ms(median(cpuTimes))}`

async function timeIt(f: () => unknown | Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  cpuTimes = []
  for (let r = 0; r < RUNS; r++) {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    await f()
    times.push(performance.now() - t0)
    const c = process.cpuUsage(c0)
    cpuTimes.push((c.user + c.system) / 1000)
  }
  return times
}

async function benchGrid(): Promise<void> {
  const width = 680
  const height = 500 // 340,000 cells
  const rasters = landfireLike(width, height)
  const land = toLandscape(rasters, width, height)
  const compute = await timeIt(() => fireBehaviourGrid(land, WEATHER))
  const types = [0, 0, 0, 0]
  for (const t of fireBehaviourGrid(land, WEATHER).fireType) types[t]! += 1
  console.log(
    `grid: ${(width * height).toLocaleString('en')} cells: compute median ${ms(median(compute))} ` +
      `(runs ${compute.map(ms).join(', ')}; ${cpu()}); target ≤ 1 s: ${median(compute) <= 1000 ? 'met' : 'NOT met'}`,
  )
  console.log(
    `      fire types: unburnable ${types[0]}, surface ${types[1]}, passive ${types[2]}, active ${types[3]}`,
  )
  // The whole command on GeoTIFFs of the same landscape (geotiff reads; gdal_translate writes).
  const dir = await mkdtemp(join(tmpdir(), 'bench-fire-'))
  try {
    const grid: RasterGrid = {
      width,
      height,
      geoTransform: [-1_000_000, CELL_M, 0, 1_500_000, 0, -CELL_M],
      geoKeys: {},
    }
    const wkt = 'EPSG:5070'
    const files: Record<string, string> = {}
    for (const [name, values] of Object.entries(rasters)) {
      files[name] = join(dir, `${name}.tif`)
      await writeGeoTiff(files[name], grid, wkt, values, 'Float32', -9999)
    }
    const args = [
      ...[
        '--fuel',
        files.fuel!,
        '--fuel-models',
        'fbfm40',
        '--slope',
        files.slopeDeg!,
        '--slope-units',
        'degrees',
      ],
      ...['--aspect', files.aspect!, '--canopy-cover', files.cover!, '--canopy-height', files.height!],
      ...['--canopy-base-height', files.base!, '--canopy-bulk-density', files.density!],
      ...['--moisture', '6,7,8,60,90', '--wind', '15', '--wind-from', '225', '--wind-height', '20ft'],
      ...['--out', join(dir, 'out')],
    ]
    const whole = await timeIt(() => runGrid(args))
    console.log(`      the whole command (read 8 GeoTIFFs, compute, write 5): median ${ms(median(whole))}`)
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The whole window's fire behaviour first, then the travel times (as `npm run fire -- spread` does). */
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

/** A block of a landscape as its own landscape. */
function blockOf(land: Landscape, x0: number, y0: number, w: number, h: number): Landscape {
  const pick = <T extends Float32Array | Int16Array | Uint8Array>(
    a: ArrayLike<number>,
    make: (n: number) => T,
  ): T => {
    const out = make(w * h)
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) out[y * w + x] = a[(y0 + y) * land.width + x0 + x]!
    return out
  }
  const f32 = (n: number) => new Float32Array(n)
  return {
    width: w,
    height: h,
    fuelModel: pick(land.fuelModel, (n) => new Int16Array(n)),
    slopePercent: pick(land.slopePercent, f32),
    aspectDeg: pick(land.aspectDeg, f32),
    missing: pick(land.missing, (n) => new Uint8Array(n)),
    ...(land.canopyCoverPercent ? { canopyCoverPercent: pick(land.canopyCoverPercent, f32) } : {}),
    ...(land.canopyHeightFt ? { canopyHeightFt: pick(land.canopyHeightFt, f32) } : {}),
    ...(land.canopyBaseHeightFt ? { canopyBaseHeightFt: pick(land.canopyBaseHeightFt, f32) } : {}),
    ...(land.canopyBulkDensityKgPerM3
      ? { canopyBulkDensityKgPerM3: pick(land.canopyBulkDensityKgPerM3, f32) }
      : {}),
  }
}

/**
 * Fire behaviour per 32 × 32 block only where the fire comes (as simulateFire does on the server),
 * then the travel times: the same arrival times as spreadEveryCell (checked below).
 */
function spreadLazy(land: Landscape, side: number, weather: FireWeather, ignition: number): Float64Array {
  return minimumTravelTime({
    width: side,
    height: side,
    cellWidthM: CELL_M,
    cellHeightM: CELL_M,
    ignitionCells: [ignition],
    maxMinutes: 360,
    blockSize: 32,
    blockEllipses: (_p, bc, br) => {
      const x0 = bc * 32
      const y0 = br * 32
      const w = Math.min(32, side - x0)
      const h = Math.min(32, side - y0)
      const f = fireBehaviourGrid(blockOf(land, x0, y0, w, h), weather)
      const head = Float32Array.from(f.rosFtPerMin, (v) => v * 0.3048)
      return ellipseRates(
        { headRosMPerMin: head, eccentricity: f.eccentricity, maxSpreadDirDeg: f.maxSpreadDirDeg },
        w * h,
      )
    },
  })
}

async function benchSpread(name: string, land: Landscape, side: number, weather: FireWeather): Promise<void> {
  // Ignite the grass (GR2) cell nearest the centre.
  let ignition = Math.floor(side / 2) * side + Math.floor(side / 2)
  while (land.fuelModel[ignition] !== 102) ignition++
  const report = (how: string, arrival: Float64Array, times: number[]) => {
    let burned = 0
    for (const t of arrival) if (t < Infinity) burned++
    console.log(
      `spread, ${name}: 6 h over ${side} × ${side} cells (20 × 20 km at 30 m; ${how}), ` +
        `${burned.toLocaleString('en')} cells (${((burned * CELL_M * CELL_M) / 10_000).toFixed(0)} ha) burned: ` +
        `median ${ms(median(times))} (runs ${times.map(ms).join(', ')}; ${cpu()}); target ≤ 1 s: ${median(times) <= 1000 ? 'met' : 'NOT met'}`,
    )
  }
  let every: Float64Array = new Float64Array(0)
  report(
    'fire behaviour per 32 × 32 block where the fire comes, as simulateFire does',
    spreadLazy(land, side, weather, ignition),
    await timeIt(() => spreadLazy(land, side, weather, ignition)),
  )
  report(
    'fire behaviour of every cell first, as `fire spread` does',
    (every = spreadEveryCell(land, side, weather, ignition)),
    await timeIt(() => spreadEveryCell(land, side, weather, ignition)),
  )
  const lazy = spreadLazy(land, side, weather, ignition)
  let differ = 0
  for (let i = 0; i < lazy.length; i++) if (Math.abs(lazy[i]! - every[i]!) > 1e-3) differ++
  if (differ > 0) throw new Error(`the two spreads differ in ${differ} cells`)
}

console.log(
  `bench:fire — medians of ${RUNS} runs; load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
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
  const grass: Landscape = {
    width: side,
    height: side,
    fuelModel: new Int16Array(n).fill(102),
    slopePercent: new Float32Array(n),
    aspectDeg: new Float32Array(n),
    missing: new Uint8Array(n),
  }
  await benchSpread('uniform GR2 grass, 25 mph', grass, side, {
    ...WEATHER,
    windSpeedMph: 25,
  })
}
if (parts.has('consequence')) {
  const territory = demoTerritory()
  benchConsequence(territory, Number(process.env.CONSEQUENCE_CELL_M ?? 400), 9)
  benchOneFire(territory, -106.7, 34.2, 90)
}
