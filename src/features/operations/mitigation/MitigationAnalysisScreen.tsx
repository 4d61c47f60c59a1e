import { MapScreen } from '../../map'
import { MitigationPanel } from './MitigationPanel'

/** /MitigationAnalysis: the map screen with the mitigation ranking panel beneath the map. */
export function MitigationAnalysisScreen() {
  return <MapScreen panel={<MitigationPanel />} />
}
