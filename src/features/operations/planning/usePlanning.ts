import { useFetched, type Loadable } from '../shared/useFetched'
import { fetchPlanning, planningQuery, type PlanningResult } from './planningApi'

/** The planning list for an hour (null: the server's current hour), the what-if thresholds and whether circuits under threshold are listed. */
export function usePlanning(
  hour: number | null,
  overrides: Readonly<Record<string, number>>,
  below: boolean,
  enabled = true,
): Loadable<PlanningResult> {
  const key = enabled ? planningQuery(hour, overrides, below) : null
  return useFetched(key, (signal) => fetchPlanning(hour, overrides, below, signal))
}
