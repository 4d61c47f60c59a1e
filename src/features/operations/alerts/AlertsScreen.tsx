import { OperationsScreen } from '../shared/OperationsScreen'
import { AlertsPanel } from './AlertsPanel'

/** /Alerts: the map screen with the asset-exposure alerts panel beneath the map. */
export function AlertsScreen() {
  return (
    <OperationsScreen>
      <AlertsPanel />
    </OperationsScreen>
  )
}
