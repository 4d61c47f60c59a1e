import { useFetched, type Loadable } from '../shared/useFetched'
import { fetchPlanning, planningQuery, type PlanningResult } from './planningApi'

/** The planning list for an hour (null: the server's current hour) and the what-if thresholds. */
export function usePlanning(
  hour: number | null,
  overrides: Readonly<Record<string, number>>,
  enabled = true,
): Loadable<PlanningResult> {
  const key = enabled ? planningQuery(hour, overrides) : null
  return useFetched(key, (signal) => fetchPlanning(hour, overrides, signal))
}
