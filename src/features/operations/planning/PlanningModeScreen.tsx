import { MapScreen } from '../../map'
import { PlanningPanel } from './PlanningPanel'

/** /PlanningMode: the map with the forecast-hour slider and the circuits over threshold. */
export function PlanningModeScreen() {
  return <MapScreen panel={<PlanningPanel />} />
}
