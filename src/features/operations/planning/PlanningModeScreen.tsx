import { MapScreen } from '../../map'

/** The map screen; its route panel is being built (issue 10). */
export function PlanningModeScreen() {
  return <MapScreen />
}
