import type { AppStore } from '../../store/AppStore'
import { decodeParts, partsToGeometry } from '../../store/geometryCodec'
import type { FireRunRow, StoredIgnitionResult } from '../../store/fireRunStore'
import type { FeatureInput } from '../../store/writeDataset'
import type { GridRaster } from '../../grids/gridRaster'
import { gridCatalog } from '../../grids/gridCatalog'
import { circuitSummary, type CircuitSummary, type Measure } from '../consequence'
import type { FireMeasure, FireRunOutputs, FireScoreOutput } from './fireRunSettings'

/** Per-circuit summaries of a run's ignitions (h6's circuitSummary over every forecast start). */
export function summariseRun(results: readonly StoredIgnitionResult[]): CircuitSummary[] {
  return circuitSummary(results)
}

/** A circuit's value of `measure` by `statistic` (max or the 90th percentile over its ignitions). */
export function circuitValue(s: CircuitSummary, o: Pick<FireScoreOutput, 'measure' | 'statistic'>): number {
  return s[o.statistic][measureKey(o.measure)]
}

/** The 0–1 score of a value: min(1, value / scoreAt), to 0.01. */
export function scoreOf(value: number, scoreAt: number): number {
  return Math.round(Math.min(1, Math.max(0, value) / scoreAt) * 100) / 100
}

/** The 0–1 score of a circuit (its `statistic` of `measure` over `scoreAt`, capped at 1). */
export function consequenceScore(
  s: CircuitSummary,
  o: Pick<FireScoreOutput, 'measure' | 'statistic' | 'scoreAt'>,
): number {
  return scoreOf(circuitValue(s, o), o.scoreAt)
}

const measureKey = (m: FireMeasure): Measure => (m === 'acres' ? 'burnedAcres' : m)

/** "computed 14:05 from wind run 2026-11-27T13:00Z, fuels …": the popup's provenance line. */
export function provenanceLine(run: FireRunRow, computedAt: Date, timeZone: string): string {
  const hhmm = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone,
  }).format(computedAt)
  const fuels = typeof run.provenance.fuels === 'string' ? run.provenance.fuels : 'unknown'
  return `computed ${hhmm} from wind run ${run.referenceTime.replace(/:00\.000Z$/, 'Z')}, fuels ${fuels} (run ${run.id})`
}

/** A dataset's features with `update(properties)` applied (geometry kept). */
async function rewritten(
  store: AppStore,
  dataset: string,
  update: (p: Record<string, unknown>) => Record<string, unknown>,
): Promise<FeatureInput[]> {
  const def = store.dataset(dataset)
  if (!def) throw new Error(`dataset ${dataset} is not configured (fire consequence outputs)`)
  return (await store.allFeatures(dataset)).map((f) => ({
    geometry: partsToGeometry(decodeParts(f.geom), def.geometry),
    properties: update({ ...f.properties }),
  }))
}

/**
 * Rasters on `shape` of a value per ignition: each cell the highest value of any ignition in it — per
 * forecast start, then band h is the latest start at or before hour h (`bands` bands); or, with
 * `hourly` false, one band of each cell's highest over every start. No data where no ignition lies.
 */
export function ignitionRasters(
  results: readonly StoredIgnitionResult[],
  starts: readonly number[],
  bands: number,
  shape: Omit<GridRaster, 'data'>,
  value: (r: StoredIgnitionResult) => number,
  hourly = true,
): GridRaster[] {
  const empty = () => ({ ...shape, data: new Float32Array(shape.nx * shape.ny).fill(Number.NaN) })
  const byStart = new Map<number, GridRaster>()
  const all = empty()
  for (const s of starts) byStart.set(s, hourly ? empty() : all)
  for (const r of results) {
    const g = byStart.get(r.startHour)
    if (!g) continue
    const i = Math.floor(((r.lon - g.west) / (g.east - g.west)) * g.nx)
    const j = Math.floor(((g.north - r.lat) / (g.north - g.south)) * g.ny)
    if (i < 0 || j < 0 || i >= g.nx || j >= g.ny) continue
    const k = j * g.nx + i
    const v = value(r)
    if (!(g.data[k]! >= v)) g.data[k] = v
  }
  if (!hourly) return [all]
  const sorted = [...starts].sort((a, b) => a - b)
  const out: GridRaster[] = []
  for (let h = 0; h < bands; h++) {
    const s = [...sorted].reverse().find((x) => x <= h) ?? sorted[0]
    out.push(byStart.get(s ?? 0) ?? empty())
  }
  return out
}

/** The consequence raster of each forecast hour: each cell the most buildings any ignition in it reached. */
export function consequenceRasters(
  results: readonly StoredIgnitionResult[],
  starts: readonly number[],
  hours: number,
  shape: Omit<GridRaster, 'data'>,
): GridRaster[] {
  return ignitionRasters(results, starts, hours, shape, (r) => r.buildings)
}

/** Bands of an hourly output grid: its `hourly` in config/layers.yaml, else the run's wind hours. */
function bandsOf(grid: string, run: FireRunRow): number {
  const declared = gridCatalog().grids.find((g) => g.id === grid)?.hours ?? 1
  if (declared > 1) return declared
  const windHours = typeof run.settings.windHours === 'number' ? run.settings.windHours : 0
  return Math.max(1, windHours, ...run.startHours.map((h) => h + 1))
}

/** The shape of an output grid: its own stored shape, else the population grid's. */
async function shapeOf(store: AppStore, grid: string): Promise<Omit<GridRaster, 'data'> | null> {
  const g = (await store.grids.grid(grid, 0)) ?? (await store.grids.grid('population_density', 0))
  if (!g) return null
  const { nx, ny, west, south, east, north } = g
  return { nx, ny, west, south, east, north }
}

/**
 * Writes a completed run's results into the layers in one store transaction, all or nothing (the
 * previous results serve until it commits): the Fire Consequence dataset's per-circuit score,
 * structures and provenance and its raster per hour; and the PSPS and EPSS scores config/fire.yaml
 * names (per circuit into their dataset's field, with the provenance, and their raster).
 */
export async function writeRunOutputs(
  store: AppStore,
  run: FireRunRow,
  results: readonly StoredIgnitionResult[],
  summaries: readonly CircuitSummary[],
  outputs: FireRunOutputs,
  computedAt: Date,
  timeZone: string,
): Promise<void> {
  const byCircuit = new Map(summaries.map((s) => [s.circuit, s]))
  const provenance = provenanceLine(run, computedAt, timeZone)
  const scoreBy = (o: Pick<FireScoreOutput, 'measure' | 'statistic' | 'scoreAt'>) => (id: unknown) => {
    const s = byCircuit.get(String(id))
    return s ? consequenceScore(s, o) : 0
  }
  const consequenceScoreOf = scoreBy(outputs.consequence)
  const datasets: [string, FeatureInput[]][] = [
    [
      outputs.consequenceDataset,
      await rewritten(store, outputs.consequenceDataset, (p) => {
        const s = byCircuit.get(String(p.identifier))
        return {
          ...p,
          fire_consequence_score: consequenceScoreOf(p.identifier),
          structures_impacted: s ? s[outputs.consequence.statistic].buildings : 0,
          consequence_computed: provenance,
        }
      }),
    ],
  ]
  const grids: [string, GridRaster[]][] = []
  const consequenceShape = await shapeOf(store, outputs.consequenceGrid)
  if (consequenceShape)
    grids.push([
      outputs.consequenceGrid,
      consequenceRasters(results, run.startHours, bandsOf(outputs.consequenceGrid, run), consequenceShape),
    ])
  for (const o of outputs.scores) {
    const score = scoreBy(o)
    datasets.push([
      o.dataset,
      await rewritten(store, o.dataset, (p) => ({
        ...p,
        [o.field]: score(p[o.keyField]),
        ...(o.provenanceField ? { [o.provenanceField]: provenance } : {}),
      })),
    ])
    if (!o.grid) continue
    const shape = await shapeOf(store, o.grid)
    if (!shape) continue
    const key = measureKey(o.measure)
    grids.push([
      o.grid,
      ignitionRasters(
        results,
        run.startHours,
        o.hourly ? bandsOf(o.grid, run) : 1,
        shape,
        (r) => scoreOf(r[key], o.scoreAt),
        o.hourly,
      ),
    ])
  }
  await store.transaction(async () => {
    for (const [id, features] of datasets) await store.replaceDataset(id, features)
    for (const [id, rasters] of grids) await store.grids.replaceGrid(id, rasters, `fire-run:${run.id}`)
  })
}
