// npm run bench:fire — the fire engine's speed (issue #31 benchmark; figures in docs/fire.md):
//   grid: fire behaviour over 340,000 cells (target ≤ 1 s), the computation and the whole
//         `npm run fire -- grid` (reading and writing the GeoTIFFs) on the same landscape;
//   spread: one 6-hour spread over a 20 × 20 km window at 30 m (target ≤ 1 s);
//   consequence: the demo territory's ignitions (every line, 500 m apart), per-ignition time of a 6-hour
//         fire and its counts at the consequence cell size, and the whole run (8 starts, 2 workers)
//         estimated from it (target ≤ 5 min); one "what if" fire with isochrones at 90 m.
// Medians over several runs on a synthetic LANDFIRE-like landscape: FBFM40 fuel patches (grass, shrub,
// timber understory, litter, non-burnable), terrain slope and aspect from a smooth surface, canopy where
// there is timber.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fireBehaviourGrid, type FireWeather, type Landscape } from '../src/fire/fireBehaviourGrid'
import { minimumTravelTime } from '../src/fire/spread/minimumTravelTime'
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

async function timeIt(f: () => unknown | Promise<unknown>): Promise<number[]> {
  const times: number[] = []
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now()
    await f()
    times.push(performance.now() - t0)
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
      `(runs ${compute.map(ms).join(', ')}); target ≤ 1 s: ${median(compute) <= 1000 ? 'met' : 'NOT met'}`,
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

function spreadOnce(land: Landscape, side: number, weather: FireWeather, ignition: number): Float64Array {
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

async function benchSpread(name: string, land: Landscape, side: number, weather: FireWeather): Promise<void> {
  // Ignite the grass (GR2) cell nearest the centre.
  let ignition = Math.floor(side / 2) * side + Math.floor(side / 2)
  while (land.fuelModel[ignition] !== 102) ignition++
  let arrival: Float64Array = new Float64Array(0)
  const times = await timeIt(() => {
    arrival = spreadOnce(land, side, weather, ignition)
  })
  let burned = 0
  for (const t of arrival) if (t < Infinity) burned++
  console.log(
    `spread, ${name}: 6 h over ${side} × ${side} cells (20 × 20 km at 30 m; fire behaviour of every cell, then the ` +
      `travel times), ${burned.toLocaleString('en')} cells (${((burned * CELL_M * CELL_M) / 10_000).toFixed(0)} ha) burned: ` +
      `median ${ms(median(times))} (runs ${times.map(ms).join(', ')}); target ≤ 1 s: ${median(times) <= 1000 ? 'met' : 'NOT met'}`,
  )
}

console.log(
  `bench:fire — medians of ${RUNS} runs; load average ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
)
await benchGrid()
{
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
{
  const territory = demoTerritory()
  benchConsequence(territory, Number(process.env.CONSEQUENCE_CELL_M ?? 400), 9)
  benchOneFire(territory, -106.7, 34.2, 90)
}
