import type { Parts } from '../store/geometryCodec'
import type { Bbox, PlanningRow } from '../../shared/operations/wireTypes'

/** A circuit of the planning dataset as the ranking needs it. */
export interface PlanningCircuit {
  id: number
  key: string
  /** Stored wind-gust threshold (mph); null when the record has none. */
  threshold: number | null
  customers: number | null
  bbox: Bbox | null
  parts: Parts
}

/** A circuit with its sampled gust against its (stored or what-if) threshold, as GET /api/planning lists it. */
export type RankedCircuit = PlanningRow

const round2 = (v: number) => Math.round(v * 100) / 100

/**
 * Circuits over threshold (all circuits with a forecast and a threshold when `includeBelow`), ranked by exceedance (gust − threshold, largest first), then customers
 * (most first), then key. `gusts[i]` is the sampled gust of `circuits[i]` (NaN: no forecast there);
 * `overrides` are what-if thresholds by circuit key and never change the circuits.
 */
export function rankExceedances(
  circuits: readonly PlanningCircuit[],
  gusts: ArrayLike<number>,
  overrides: ReadonlyMap<string, number>,
  includeBelow = false,
): RankedCircuit[] {
  const out: RankedCircuit[] = []
  circuits.forEach((c, i) => {
    const raw = gusts[i] ?? Number.NaN
    const override = overrides.get(c.key)
    const threshold = override ?? c.threshold
    if (Number.isNaN(raw) || threshold === null) return
    const gust = round2(raw)
    const exceeds = gust > threshold
    if (!exceeds && !includeBelow) return
    out.push({
      id: c.id,
      key: c.key,
      gust,
      threshold,
      storedThreshold: c.threshold,
      overridden: override !== undefined,
      exceedance: round2(gust - threshold),
      exceeds,
      customers: c.customers,
      bbox: c.bbox,
    })
  })
  return out.sort(
    (a, b) =>
      b.exceedance - a.exceedance ||
      (b.customers ?? -1) - (a.customers ?? -1) ||
      a.key.localeCompare(b.key, 'en', { numeric: true }),
  )
}
