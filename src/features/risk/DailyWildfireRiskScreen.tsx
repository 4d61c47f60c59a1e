import { MapScreen } from '../map'
import { appConfig } from '../../shared/config'
import { FireWhatIfTool } from '../fireSim'
import { ForecastPanel } from './ForecastPanel'

/** /DailyWildfireRisk: the map (PSPS and EPSS visible by default) with the forecast chart panel and the fire what-if tool. */
export function DailyWildfireRiskScreen() {
  return (
    <MapScreen panel={<ForecastPanel />} panelTitle={appConfig.chart.title} overlay={<FireWhatIfTool />} />
  )
}
