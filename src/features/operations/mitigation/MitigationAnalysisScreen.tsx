import { OperationsScreen } from '../shared/OperationsScreen'
import { MitigationPanel } from './MitigationPanel'

/** /MitigationAnalysis: the map screen with the mitigation ranking panel beneath the map. */
export function MitigationAnalysisScreen() {
  return (
    <OperationsScreen>
      <MitigationPanel />
    </OperationsScreen>
  )
}
