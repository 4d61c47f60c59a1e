import { OperationsScreen } from '../shared/OperationsScreen'
import { PspsPanel } from './PspsPanel'

/** /PSPS: the map (PSPS layers on) with the next event's roll-up panel. */
export function PspsScreen() {
  return (
    <OperationsScreen>
      <PspsPanel />
    </OperationsScreen>
  )
}
