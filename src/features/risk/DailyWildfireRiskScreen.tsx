import { MapScreen } from '../map'
import { appConfig } from '../../shared/config'
import { ForecastPanel } from './ForecastPanel'

/** /DailyWildfireRisk: the map (PSPS and EPSS visible by default) with the forecast chart panel. */
export function DailyWildfireRiskScreen() {
  return <MapScreen panel={<ForecastPanel />} panelTitle={appConfig.chart.title} />
}
