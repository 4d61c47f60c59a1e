import type { PlanningSettings } from '../../shared/config'
import type { GridStorage } from '../store/AppStore'
import type { Awaitable } from '../store/Awaitable'
import type { StoredFeature } from '../store/Store'
import { decodeParts } from '../store/geometryCodec'
import { sampleLineMax } from './planningSample'
import type { PlanningCircuit } from './planningRank'
import { bboxOfParts } from './pspsEvent'

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** The circuits of the planning dataset (key, stored threshold, customers, geometry). */
export function toPlanningCircuits(
  settings: PlanningSettings,
  features: readonly StoredFeature[],
): PlanningCircuit[] {
  return features.map((f) => {
    const parts = decodeParts(f.geom)
    return {
      id: f.id,
      key: String(f.properties[settings.key] ?? f.id),
      threshold: num(f.properties[settings.threshold]),
      customers: num(f.properties[settings.customers]),
      bbox: bboxOfParts(parts),
      parts,
    }
  })
}

/**
 * Caches the circuits per dataset version and the per-hour gust samples per dataset + grid
 * version. Samples do not depend on thresholds, so a what-if request only re-ranks.
 */
export class PlanningSamples {
  private circuitsCache: { version: number; circuits: PlanningCircuit[] } | null = null
  private gustCache: { key: string; hours: Map<number, Float64Array> } | null = null

  constructor(private readonly grids: GridStorage) {}

  async circuits(
    settings: PlanningSettings,
    version: number,
    load: () => Awaitable<StoredFeature[]>,
  ): Promise<PlanningCircuit[]> {
    if (this.circuitsCache?.version === version) return this.circuitsCache.circuits
    const circuits = toPlanningCircuits(settings, await load())
    this.circuitsCache = { version, circuits }
    return circuits
  }

  /** Gust per circuit (same order) for one hour; null when the grid or that hour is not stored. */
  async gusts(
    gridId: string,
    hour: number,
    datasetVersion: number,
    circuits: readonly PlanningCircuit[],
  ): Promise<Float64Array | null> {
    const gridVersion = await this.grids.version(gridId)
    if (gridVersion === undefined) return null
    const key = `${gridId}|${gridVersion}|${datasetVersion}`
    if (this.gustCache?.key !== key) this.gustCache = { key, hours: new Map() }
    const cache = this.gustCache
    const hit = cache.hours.get(hour)
    if (hit) return hit
    const grid = await this.grids.grid(gridId, hour)
    if (!grid) return null
    const values = Float64Array.from(circuits, (c) => sampleLineMax(grid, c.parts))
    cache.hours.set(hour, values)
    return values
  }
}
