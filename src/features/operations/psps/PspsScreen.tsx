import { MapScreen } from '../../map'
import { PspsPanel } from './PspsPanel'

/** /PSPS: the map (PSPS layers on) with the next event's roll-up panel. */
export function PspsScreen() {
  return <MapScreen panel={<PspsPanel />} />
}
