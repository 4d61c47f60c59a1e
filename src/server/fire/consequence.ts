// Fire consequence (issue #31): ignition points every N metres along every overhead line, a fire from
// each for H hours, and what lies inside each final perimeter — burned acres, buildings, population,
// critical facilities — per ignition and, summarised, per circuit (maximum and 90th percentile).
// Plain data in and out (assets as arrays, spatially indexed with kdbush), so it runs in worker threads.
import KDBush from 'kdbush'
import type { GridRaster } from '../grids/gridRaster'
import type { FireLandscape } from './landscape'
import { BlockCache, simulateFire, type SimulationResult } from './simulate'

/** An overhead line: its circuit, its own id and its geometry (LineString or MultiLineString coordinates). */
export interface OverheadLine {
  circuit: string
  lineId: string
  coordinates: readonly (readonly number[])[] | readonly (readonly (readonly number[])[])[]
}

export interface Ignition {
  /** `<lineId>:<n>`, n counting from 0 along the line. */
  ignitionId: string
  circuit: string
  lineId: string
  lon: number
  lat: number
}

/** What a consequence run counts: points as flat [lon, lat, lon, lat, …] arrays, population as a grid. */
export interface ConsequenceAssets {
  buildings: Float64Array | readonly number[]
  criticalFacilities: Float64Array | readonly number[]
  /** Residents per km² (the population_density grid). */
  population?: GridRaster
}

/** ConsequenceAssets with their spatial indexes built (build once, reuse for every ignition). */
export interface IndexedAssets {
  buildings: { points: Float64Array | readonly number[]; index: KDBush }
  criticalFacilities: { points: Float64Array | readonly number[]; index: KDBush }
  population?: GridRaster
}

export interface IgnitionResult {
  circuit: string
  ignitionId: string
  lineId: string
  lon: number
  lat: number
  burnedAcres: number
  buildings: number
  population: number
  criticalFacilities: number
  /** False when the point lies on fuel that does not burn (a town, water, bare ground). */
  ignited: boolean
  truncated: boolean
}

export const MEASURES = ['burnedAcres', 'buildings', 'population', 'criticalFacilities'] as const
export type Measure = (typeof MEASURES)[number]

export interface CircuitSummary {
  circuit: string
  ignitions: number
  max: Record<Measure, number>
  p90: Record<Measure, number>
}

const R_EARTH_M = 6_371_008.8
const RAD = Math.PI / 180

/** Great-circle distance in metres (haversine). */
export function distanceM(a: readonly number[], b: readonly number[]): number {
  const dLat = (b[1]! - a[1]!) * RAD
  const dLon = (b[0]! - a[0]!) * RAD
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1]! * RAD) * Math.cos(b[1]! * RAD) * Math.sin(dLon / 2) ** 2
  return 2 * R_EARTH_M * Math.asin(Math.min(1, Math.sqrt(h)))
}

/**
 * Points every `spacingM` metres along each line (from its first vertex; each part of a multi-line on
 * its own), and its last vertex when no point lies within a metre of it: a 1,200 m line at 500 m gives 0, 500,
 * 1,000 and 1,200 m.
 */
export function ignitionPoints(lines: readonly OverheadLine[], spacingM: number): Ignition[] {
  if (!(spacingM > 0)) throw new Error('spacingM must be a positive number of metres')
  const out: Ignition[] = []
  for (const line of lines) {
    const parts = (
      Array.isArray(line.coordinates[0]?.[0]) ? line.coordinates : [line.coordinates]
    ) as readonly (readonly (readonly number[])[])[]
    let k = 0
    const push = (lon: number, lat: number) =>
      out.push({ ignitionId: `${line.lineId}:${k++}`, circuit: line.circuit, lineId: line.lineId, lon, lat })
    for (const part of parts) {
      if (part.length === 0) continue
      let next = 0 // distance along the part of the next point
      let travelled = 0
      let lastAt = -Infinity
      for (let s = 0; s + 1 < part.length || (s === 0 && part.length === 1); s++) {
        const a = part[s]!
        const b = part[s + 1] ?? a
        const len = distanceM(a, b)
        while (next <= travelled + len + 1e-9) {
          const f = len > 0 ? (next - travelled) / len : 0
          push(a[0]! + f * (b[0]! - a[0]!), a[1]! + f * (b[1]! - a[1]!))
          lastAt = next
          next += spacingM
        }
        travelled += len
        if (part.length === 1) break
      }
      const end = part[part.length - 1]!
      if (travelled - lastAt > 1) push(end[0]!, end[1]!)
    }
  }
  return out
}

/** Builds the spatial indexes of the assets. */
export function indexAssets(assets: ConsequenceAssets): IndexedAssets {
  const index = (points: Float64Array | readonly number[]) => {
    const n = Math.floor(points.length / 2)
    const kd = new KDBush(Math.max(1, n))
    for (let i = 0; i < n; i++) kd.add(points[2 * i]!, points[2 * i + 1]!)
    if (n === 0) kd.add(Infinity, Infinity)
    kd.finish()
    return { points, index: kd }
  }
  return {
    buildings: index(assets.buildings),
    criticalFacilities: index(assets.criticalFacilities),
    ...(assets.population ? { population: assets.population } : {}),
  }
}

/** Counts the assets inside a fire's final perimeter (the cells it burned within its hours). */
export function countInside(
  fire: SimulationResult,
  assets: IndexedAssets,
): Omit<IgnitionResult, 'circuit' | 'ignitionId' | 'lineId' | 'lon' | 'lat' | 'ignited' | 'truncated'> {
  const { grid, arrivalMinutes } = fire
  let minC = Infinity
  let minR = Infinity
  let maxC = -1
  let maxR = -1
  for (let i = 0; i < arrivalMinutes.length; i++) {
    if (arrivalMinutes[i] !== arrivalMinutes[i]) continue
    const c = i % grid.width
    const r = (i - c) / grid.width
    if (c < minC) minC = c
    if (c > maxC) maxC = c
    if (r < minR) minR = r
    if (r > maxR) maxR = r
  }
  if (maxC < 0) return { burnedAcres: 0, buildings: 0, population: 0, criticalFacilities: 0 }
  const west = grid.west + minC * grid.dLon
  const east = grid.west + (maxC + 1) * grid.dLon
  const north = grid.north - minR * grid.dLat
  const south = grid.north - (maxR + 1) * grid.dLat
  const burnedAt = (lon: number, lat: number): boolean => {
    const c = Math.floor((lon - grid.west) / grid.dLon)
    const r = Math.floor((grid.north - lat) / grid.dLat)
    if (c < 0 || r < 0 || c >= grid.width || r >= grid.height) return false
    const t = arrivalMinutes[r * grid.width + c]!
    return t === t
  }
  const count = (a: IndexedAssets['buildings']) => {
    let k = 0
    for (const id of a.index.range(west, south, east, north))
      if (burnedAt(a.points[2 * id]!, a.points[2 * id + 1]!)) k++
    return k
  }
  let population = 0
  const pop = assets.population
  if (pop) {
    const cellKm2 = (fire.cellSizeM * fire.cellSizeM) / 1e6
    for (let r = minR; r <= maxR; r++) {
      const lat = grid.north - (r + 0.5) * grid.dLat
      const py = Math.floor(((pop.north - lat) / (pop.north - pop.south)) * pop.ny)
      if (py < 0 || py >= pop.ny) continue
      for (let c = minC; c <= maxC; c++) {
        const t = arrivalMinutes[r * grid.width + c]!
        if (t !== t) continue
        const lon = grid.west + (c + 0.5) * grid.dLon
        const px = Math.floor(((lon - pop.west) / (pop.east - pop.west)) * pop.nx)
        if (px < 0 || px >= pop.nx) continue
        const density = pop.data[py * pop.nx + px]!
        if (density > 0) population += density * cellKm2
      }
    }
  }
  return {
    burnedAcres: fire.burnedAcres,
    buildings: count(assets.buildings),
    population: Math.round(population),
    criticalFacilities: count(assets.criticalFacilities),
  }
}

/**
 * Cell size of consequence runs unless configured: near the resolution of the demo fuels (0.005°) and
 * what lets the demo territory's run come near its time budget (docs/fire.md, "Consequence run: speed").
 */
export const DEFAULT_CONSEQUENCE_CELL_SIZE_M = 400

export interface RunIgnitionsOptions {
  /** Default DEFAULT_CONSEQUENCE_CELL_SIZE_M. */
  cellSizeM?: number
  windowHalfSizeM?: number
  /** Shared between calls of one worker: fire behaviour of the lattice's blocks by hour. */
  cache?: BlockCache
}

/**
 * A fire from each ignition, `hours` long from `start`, and what lies inside its final perimeter.
 * Assets are indexed once (pass IndexedAssets to reuse the indexes over batches).
 */
export function runIgnitions(
  landscape: FireLandscape,
  ignitions: readonly Ignition[],
  start: Date | number,
  hours: number,
  assets: ConsequenceAssets | IndexedAssets,
  options: RunIgnitionsOptions = {},
): IgnitionResult[] {
  const indexed =
    'index' in assets.buildings ? (assets as IndexedAssets) : indexAssets(assets as ConsequenceAssets)
  const cache = options.cache ?? new BlockCache()
  const [w, s, e, n] = landscape.bounds
  return ignitions.map((ig) => {
    const base = {
      circuit: ig.circuit,
      ignitionId: ig.ignitionId,
      lineId: ig.lineId,
      lon: ig.lon,
      lat: ig.lat,
    }
    if (!(ig.lon >= w && ig.lon < e && ig.lat > s && ig.lat <= n))
      return {
        ...base,
        burnedAcres: 0,
        buildings: 0,
        population: 0,
        criticalFacilities: 0,
        ignited: false,
        truncated: false,
      }
    const fire = simulateFire(
      landscape,
      {
        ignitions: [[ig.lon, ig.lat]],
        start,
        hours,
        isochrones: false,
        cellSizeM: options.cellSizeM ?? DEFAULT_CONSEQUENCE_CELL_SIZE_M,
        ...(options.windowHalfSizeM ? { windowHalfSizeM: options.windowHalfSizeM } : {}),
      },
      cache,
    )
    return { ...base, ...countInside(fire, indexed), ignited: fire.ignited, truncated: fire.truncated }
  })
}

/** The 90th percentile by nearest rank: the smallest value at least 90 % of the values are at or below. */
export function percentile90(values: readonly number[]): number {
  if (values.length === 0) return 0
  return nearestRank90(Float64Array.from(values).sort())
}

/** The 90th percentile by nearest rank of values sorted ascending (at least one). */
const nearestRank90 = (sorted: Float64Array): number =>
  sorted[Math.max(0, Math.ceil(0.9 * sorted.length) - 1)]!

/**
 * Per circuit: the maximum and the 90th percentile (nearest rank) of each measure over its ignitions.
 * A run's 266,144 results are summarised in one pass per measure over typed arrays (no copy of each
 * result): the outputs writer runs it after the last batch, while the run is not yet complete.
 */
export function circuitSummary(
  results: readonly Pick<IgnitionResult, 'circuit' | Measure>[],
): CircuitSummary[] {
  const byCircuit = new Map<string, number[]>()
  results.forEach((r, i) => {
    const list = byCircuit.get(r.circuit)
    if (list) list.push(i)
    else byCircuit.set(r.circuit, [i])
  })
  const scratch = new Float64Array(Math.max(0, ...[...byCircuit.values()].map((l) => l.length)))
  return [...byCircuit.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([circuit, list]) => {
      const max = {} as Record<Measure, number>
      const p90 = {} as Record<Measure, number>
      const values = scratch.subarray(0, list.length)
      for (const m of MEASURES) {
        list.forEach((i, k) => (values[k] = results[i]![m]))
        values.sort()
        max[m] = values[values.length - 1]!
        p90[m] = nearestRank90(values)
      }
      return { circuit, ignitions: list.length, max, p90 }
    })
}
