import { OperationsScreen } from '../shared/OperationsScreen'
import { PlanningPanel } from './PlanningPanel'

/** /PlanningMode: the map with the forecast-hour slider and the circuits over threshold. */
export function PlanningModeScreen() {
  return (
    <OperationsScreen>
      <PlanningPanel />
    </OperationsScreen>
  )
}
