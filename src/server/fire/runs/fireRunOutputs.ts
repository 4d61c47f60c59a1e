import type { AppStore } from '../../store/AppStore'
import { decodeParts, partsToGeometry } from '../../store/geometryCodec'
import type { FireRunRow, StoredIgnitionResult } from '../../store/fireRunStore'
import type { FeatureInput } from '../../store/writeDataset'
import type { GridRaster } from '../../grids/gridRaster'
import { circuitSummary, type CircuitSummary } from '../consequence'
import type { FireRunOutputs } from './fireRunSettings'

/** Per-circuit summaries of a run's ignitions (h6's circuitSummary over every forecast start). */
export function summariseRun(results: readonly StoredIgnitionResult[]): CircuitSummary[] {
  return circuitSummary(
    results.map((r) => ({ ...r, lineId: r.ignitionId.split(':')[0] ?? '', ignited: true, truncated: false })),
  )
}

/** The 0–1 score of a circuit: its worst ignition's buildings over `scoreBuildings`, capped at 1. */
export function consequenceScore(s: CircuitSummary, scoreBuildings: number): number {
  return Math.round(Math.min(1, s.max.buildings / scoreBuildings) * 100) / 100
}

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
 * The consequence raster of each forecast hour on `shape`: each cell the most buildings any
 * ignition in it reached, for the latest forecast start at or before that hour; no data where the
 * cell holds no ignition.
 */
export function consequenceRasters(
  results: readonly StoredIgnitionResult[],
  starts: readonly number[],
  hours: number,
  shape: Omit<GridRaster, 'data'>,
): GridRaster[] {
  const byStart = new Map<number, GridRaster>()
  for (const s of starts)
    byStart.set(s, { ...shape, data: new Float32Array(shape.nx * shape.ny).fill(Number.NaN) })
  for (const r of results) {
    const g = byStart.get(r.startHour)
    if (!g) continue
    const i = Math.floor(((r.lon - g.west) / (g.east - g.west)) * g.nx)
    const j = Math.floor(((g.north - r.lat) / (g.north - g.south)) * g.ny)
    if (i < 0 || j < 0 || i >= g.nx || j >= g.ny) continue
    const k = j * g.nx + i
    const v = g.data[k]!
    if (!(v >= r.buildings)) g.data[k] = r.buildings
  }
  const sorted = [...starts].sort((a, b) => a - b)
  const out: GridRaster[] = []
  for (let h = 0; h < hours; h++) {
    const s = [...sorted].reverse().find((x) => x <= h) ?? sorted[0]
    out.push(
      byStart.get(s ?? 0) ?? { ...shape, data: new Float32Array(shape.nx * shape.ny).fill(Number.NaN) },
    )
  }
  return out
}

/**
 * Writes a completed run's results into the layers in one store transaction, all or nothing (the
 * previous results serve until it commits): the Fire Consequence dataset's per-circuit score,
 * structures and provenance, the datasets of `alsoScore`, and the consequence raster per hour.
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
  const score = (id: unknown) => {
    const s = byCircuit.get(String(id))
    return s ? consequenceScore(s, outputs.scoreBuildings) : 0
  }
  const consequence = await rewritten(store, outputs.consequenceDataset, (p) => {
    const s = byCircuit.get(String(p.identifier))
    return {
      ...p,
      fire_consequence_score: score(p.identifier),
      structures_impacted: s ? s.max.buildings : 0,
      consequence_computed: provenance,
    }
  })
  const others: [string, FeatureInput[]][] = []
  for (const o of outputs.alsoScore)
    others.push([
      o.dataset,
      await rewritten(store, o.dataset, (p) => ({ ...p, [o.field]: score(p[o.keyField]) })),
    ])
  const windHours = typeof run.settings.windHours === 'number' ? run.settings.windHours : 0
  const hours = Math.max(1, windHours, ...run.startHours.map((h) => h + 1))
  const old = await store.grids.grid(outputs.consequenceGrid, 0)
  const shape = old ?? (await store.grids.grid('population_density', 0))
  const rasters = shape ? consequenceRasters(results, run.startHours, hours, shape) : null
  await store.transaction(async () => {
    await store.replaceDataset(outputs.consequenceDataset, consequence)
    for (const [id, features] of others) await store.replaceDataset(id, features)
    if (rasters) await store.grids.replaceGrid(outputs.consequenceGrid, rasters, `fire-run:${run.id}`)
  })
}
