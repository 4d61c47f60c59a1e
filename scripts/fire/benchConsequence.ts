// The consequence part of `npm run bench:fire` (issue #31): the demo territory's ignitions (every
// overhead line, 500 m apart), one 6-hour fire each over the demo landscape (FBFM40 fuels from the land
// cover, terrain, the hourly demo winds), timed on batches of consecutive ignitions as the consequence
// run's workers take them; the whole territory (8 forecast starts) estimated for 2 worker threads.
import fs from 'node:fs'
import { generateDemo } from '../../src/demo/generateDemo'
import { DEFAULT_PLACES_CSV } from '../../src/demo/grids/seedGrids'
import { fireLandscapeGrids, fireShape } from '../../src/demo/grids/synth/fireFuels'
import { generateNmFields } from '../../src/demo/grids/synth/nmFields'
import { parsePlaces } from '../../src/demo/grids/synth/population'
import { gridCatalog } from '../../src/server/grids/gridCatalog'
import { appConfig } from '../../src/shared/config'
import {
  ignitionPoints,
  indexAssets,
  runIgnitions,
  type OverheadLine,
} from '../../src/server/fire/consequence'
import { DEFAULT_MOISTURE, fireLandscape, type FireLandscape } from '../../src/server/fire/landscape'
import { BlockCache, simulateFire } from '../../src/server/fire/simulate'

const STARTS = 8
const WORKERS = 2

export interface DemoTerritory {
  landscape: FireLandscape
  lines: OverheadLine[]
  buildings: Float64Array
  facilities: Float64Array
  population: ReturnType<typeof generateNmFields>['population']
}

/** The demo's landscape, lines and assets, in memory (as the seed would store them). */
export function demoTerritory(seed = 20250305): DemoTerritory {
  const catalog = gridCatalog()
  const veg = catalog.grids.find((g) => g.id === 'vegetation')?.legend
  const fields = generateNmFields({
    seed,
    places: parsePlaces(fs.readFileSync(DEFAULT_PLACES_CSV, 'utf8')),
    fires: [],
    hours: 18,
    startHourLocal: appConfig.forecastWindow.startHourLocal,
    vegetationClasses: veg?.type === 'classes' ? veg.classes : [],
  })
  const fire = fireLandscapeGrids(fireShape(fields.elevation), fields.elevation, fields.population, seed)
  const p = { id: 'demo', version: 'bench', source: 'synthetic' }
  const landscape = fireLandscape({
    fuel: fire.fuel,
    elevation: fire.elevation,
    windU: fields.windU,
    windV: fields.windV,
    windTo20ftFactor: 0.87,
    moisture: DEFAULT_MOISTURE,
    provenance: { fuel: p, terrain: [p], wind: [p, p], canopy: [] },
  })
  const demo = generateDemo()
  const lines: OverheadLine[] = []
  for (const id of ['distribution_lines', 'transmission_lines'])
    for (const f of demo.datasets[id]!()) {
      const circuit = String(f.properties?.identifier ?? '')
      lines.push({
        circuit,
        lineId: `${id}/${circuit}`,
        coordinates: (f.geometry as { coordinates: number[][] }).coordinates,
      })
    }
  const centre = (g: { type: string; coordinates: unknown }): [number, number] => {
    const ring = (
      g.type === 'Point' ? [g.coordinates] : g.type === 'Polygon' ? (g.coordinates as number[][][])[0] : []
    ) as number[][]
    const n = Math.max(1, ring.length)
    return [ring.reduce((s, q) => s + q[0]!, 0) / n, ring.reduce((s, q) => s + q[1]!, 0) / n]
  }
  const flat = (id: string) =>
    Float64Array.from([...demo.datasets[id]!()].flatMap((f) => centre(f.geometry as never)))
  return {
    landscape,
    lines,
    buildings: flat('buildings'),
    facilities: flat('critical_infrastructure'),
    population: fields.population,
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** Times batches of consecutive ignitions at a cell size; prints per-ignition time and the territory estimate. */
export function benchConsequence(
  t: DemoTerritory,
  cellSizeM: number,
  startHour: number,
  batches = 6,
  batchSize = 40,
): number {
  const ignitions = ignitionPoints(t.lines, 500)
  const assets = indexAssets({
    buildings: t.buildings,
    criticalFacilities: t.facilities,
    population: t.population,
  })
  const perIgnition: number[] = []
  const cpuPerIgnition: number[] = []
  let acres = 0
  let ignited = 0
  let truncated = 0
  const cache = new BlockCache()
  for (let b = 0; b < batches; b++) {
    const from = Math.floor(((b + 0.5) / batches) * (ignitions.length - batchSize))
    const batch = ignitions.slice(from, from + batchSize)
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    const results = runIgnitions(t.landscape, batch, startHour, 6, assets, { cellSizeM, cache })
    perIgnition.push((performance.now() - t0) / batch.length)
    const c = process.cpuUsage(c0)
    cpuPerIgnition.push((c.user + c.system) / 1000 / batch.length)
    for (const r of results) {
      acres += r.burnedAcres
      if (r.ignited) ignited++
      if (r.truncated) truncated++
    }
  }
  const each = median(perIgnition)
  const total = (each * ignitions.length * STARTS) / WORKERS / 1000
  console.log(
    `consequence at ${cellSizeM} m, forecast hour ${startHour}: ${ignitions.length.toLocaleString('en')} ignitions ` +
      `(${t.lines.length} lines, 500 m); per ignition (6 h fire + counts) median ${each.toFixed(1)} ms ` +
      `(batches ${perIgnition.map((x) => x.toFixed(1)).join(', ')}; CPU median ${median(cpuPerIgnition).toFixed(1)} ms); ${ignited}/${batches * batchSize} ignited, mean ` +
      `${(acres / Math.max(1, ignited)).toFixed(0)} acres, ${truncated} truncated; whole territory (${STARTS} starts, ` +
      `${WORKERS} workers) ≈ ${total.toFixed(0)} s; target ≤ 300 s: ${total <= 300 ? 'met' : 'NOT met'}`,
  )
  return total
}

/** One map-tool simulation (isochrones) at a cell size, median of runs. */
export function benchOneFire(t: DemoTerritory, lon: number, lat: number, cellSizeM: number, runs = 3): void {
  const times: number[] = []
  let acres = 0
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    const r = simulateFire(t.landscape, { ignitions: [[lon, lat]], start: 9, hours: 6, cellSizeM })
    times.push(performance.now() - t0)
    acres = r.burnedAcres
  }
  console.log(
    `one "what if" fire at ${lon},${lat}, ${cellSizeM} m, 6 h with isochrones: ${acres.toFixed(0)} acres, median ${median(times).toFixed(0)} ms`,
  )
}

if (process.argv[1]?.endsWith('benchConsequence.ts')) {
  const t0 = performance.now()
  const territory = demoTerritory()
  console.log(`demo territory built in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  for (const cell of (process.env.CELLS ?? '250').split(',').map(Number)) benchConsequence(territory, cell, 9)
  benchOneFire(territory, -106.7, 34.2, 90)
}
